// RUN: dlc-opt %s --split-input-file --verify-diagnostics

// Each #dlc.buffer and #dlc.step is checked on its own when parsed.

// expected-error @+1 {{buffer 'x': device, view_of and offset must be non-negative}}
func.func @f() attributes {b = #dlc.buffer<name = "x", device = -1>} { return }

// -----

// expected-error @+1 {{buffer 'x': max_shape must be non-negative}}
func.func @f() attributes {b = #dlc.buffer<name = "x", device = 0, max_shape = [4, -1]>} { return }

// -----

// expected-error @+1 {{unknown step kind 'launch': expected call, copy, record or wait}}
func.func @f() attributes {s = #dlc.step<kind = "launch", event = 0>} { return }

// -----

// expected-error @+1 {{a call step has a kernel, buffers and an output count and nothing else}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [0, 1]>} { return }

// -----

// expected-error @+1 {{a wait step has an event and nothing else}}
func.func @f() attributes {s = #dlc.step<kind = "wait", event = 0, kernel = 2>} { return }

// -----

// expected-error @+1 {{a copy step has two buffers, got 3}}
func.func @f() attributes {s = #dlc.step<kind = "copy", buffers = [0, 1, 2]>} { return }

// -----

// expected-error @+1 {{a call step's buffers must be non-negative}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [-1, 1], outputs = 1>} { return }

// -----

// expected-error @+1 {{a call step has more outputs than buffers}}
func.func @f() attributes {s = #dlc.step<kind = "call", kernel = 0, buffers = [1], outputs = 2>} { return }
