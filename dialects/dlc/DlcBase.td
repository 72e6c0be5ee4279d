//===- DlcBase.td - the dlc dialect, its device attribute, type constraints -===//
//
// The dlc dialect is dlc's dataflow IR: a func.func of side-effect-free ops on
// ranked, statically shaped tensors. Every compute op may carry a `device`
// attribute, a hard placement pin that the placement pass honours.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_BASE_TD
#define DLC_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Dlc_Dialect : Dialect {
  let name = "dlc";
  let cppNamespace = "::dlc";
  let summary = "Dataflow IR of deep-learning models, placed on a CPU and GPUs";
  let description = [{
    Ops on ranked, statically shaped tensors: enough for MLPs, CNNs and
    transformer encoders. Elementwise ops broadcast like NumPy. Any compute op
    may carry `device = #dlc.device<cpu>` or `#dlc.device<cuda:N>`, a pin.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    /// Registers the attributes; lives beside their storage in DlcAttrs.cpp.
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// #dlc.device<cpu> / #dlc.device<cuda:N> / #dlc.device<KIND:N>
//===----------------------------------------------------------------------===//

def Dlc_DeviceAttr : AttrDef<Dlc_Dialect, "Device"> {
  let mnemonic = "device";
  let summary = "A logical device: the host CPU, the N-th GPU, or another backend's device";
  let description = [{
    A logical device, bound to a real (or simulated) device when an artifact
    is loaded. Its kind is `cpu`, `cuda`, or one a backend registered
    (`dlc::registerDeviceKind`, called by passes/TargetBackend.h's registry):
    the dialect knows no backend, only the names.

    ```mlir
    %y = dlc.relu %x {device = #dlc.device<cuda:1>} : tensor<4x8xf32>
    %z = dlc.copy %y to cpu : tensor<4x8xf32>
    ```
  }];
  let parameters = (ins StringRefParameter<"the device kind">:$kind, "int64_t":$index);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isCpu() const { return getKind() == "cpu"; }
    bool isCuda() const { return getKind() == "cuda"; }
    static DeviceAttr getCpu(::mlir::MLIRContext *ctx) { return get(ctx, "cpu", 0); }
    /// "cpu" or "KIND:N", the spelling used on the command line and in dumps.
    std::string str() const;
  }];
}

//===----------------------------------------------------------------------===//
// The schedule: #dlc.buffer<...> and #dlc.step<...> (compiler/Pipeline/ScheduleIR.h)
//===----------------------------------------------------------------------===//

def Dlc_BufferAttr : AttrDef<Dlc_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "A buffer of the schedule: one value's bytes";
  let description = [{
    One entry of an entry function's `dlc.buffers` (dlc-schedule writes them,
    dlc-plan-memory adds the offsets): the value's name, its device (an index
    into `dlc.devices`), and either its own storage or `view_of` an earlier
    buffer. `cross_device`: another device's stream writes it, so it never
    shares bytes; `persistent`: a state argument's bytes, kept from run to
    run; `max_shape`: the largest shape of a value with a dimension known
    only at run time; `offset`: where it lives in its device's arena.

    ```mlir
    #dlc.buffer<name = "copy_0", device = 1, cross_device = true, offset = 64>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the value's name">:$name,
    "int64_t":$device,
    DefaultValuedParameter<"int64_t", "-1", "the buffer it is a view of">:$view_of,
    DefaultValuedParameter<"bool", "false", "another device's stream writes it">:$cross_device,
    DefaultValuedParameter<"bool", "false", "a state argument's bytes">:$persistent,
    OptionalParameter<"::mlir::DenseI64ArrayAttr", "the largest shape">:$max_shape,
    DefaultValuedParameter<"int64_t", "-1", "the offset in its device's arena">:$offset);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Dlc_StepAttr : AttrDef<Dlc_Dialect, "Step"> {
  let mnemonic = "step";
  let summary = "A step of a device's list in the schedule";
  let description = [{
    One entry of a device's list in an entry function's `dlc.steps`: a
    `call` of the `kernel`-th dlc.kernel op with its `buffers` (inputs, then
    its `outputs` outputs), a `copy` between two `buffers`, or a `record` or
    `wait` of an `event`. A kind carries its own fields and no other.

    ```mlir
    #dlc.step<kind = "call", kernel = 0, buffers = [1, 2], outputs = 1>
    #dlc.step<kind = "copy", buffers = [0, 1]>
    #dlc.step<kind = "record", event = 0>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"call, copy, record or wait">:$kind,
    DefaultValuedParameter<"int64_t", "-1", "a call's kernel">:$kernel,
    OptionalParameter<"::mlir::DenseI64ArrayAttr", "a call's or copy's buffers">:$buffers,
    DefaultValuedParameter<"int64_t", "-1", "a call's output count">:$outputs,
    DefaultValuedParameter<"int64_t", "-1", "a record's or wait's event">:$event);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// The code: #dlc.library, #dlc.cuda_module, #dlc.kernel_code (dlc-codegen;
// compiler/Pipeline/ArtifactStages.h)
//===----------------------------------------------------------------------===//

def Dlc_LibraryAttr : AttrDef<Dlc_Dialect, "Library"> {
  let mnemonic = "library";
  let summary = "A shared object of compiled kernels";
  let description = [{
    One entry of an entry function's `dlc.libraries` (dlc-codegen writes
    them): the shared object's bytes as a resource blob, the target triple
    and CPU it was compiled for, and the CPU features its code may use.

    ```mlir
    #dlc.library<code = dense_resource<dlc_library> : tensor<16384xi8>,
                 triple = "x86_64-unknown-linux-gnu", cpu = "znver3",
                 features = ["+avx2", "+fma"]>
    ```
  }];
  let parameters = (ins
    "::mlir::DenseResourceElementsAttr":$code,
    StringRefParameter<"the target triple">:$triple,
    StringRefParameter<"the target CPU">:$cpu,
    OptionalParameter<"::mlir::ArrayAttr", "the CPU features the code may use">:$features);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Dlc_CudaModuleAttr : AttrDef<Dlc_Dialect, "CudaModule"> {
  let mnemonic = "cuda_module";
  let summary = "The GPU kernels' CUDA C++, PTX and CUBINs";
  let description = [{
    One entry of an entry function's `dlc.cuda_modules`: the kernels' CUDA
    C++ source, NVRTC's PTX for `ptx_arch`, and a CUBIN for each of
    `cubin_archs` (in that order), each a resource blob.

    ```mlir
    #dlc.cuda_module<ptx_arch = "compute_90", source = dense_resource<s> : tensor<900xi8>,
                     ptx = dense_resource<p> : tensor<4000xi8>, cubin_archs = ["sm_90"],
                     cubins = [dense_resource<c> : tensor<6000xi8>]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the PTX's virtual architecture">:$ptx_arch,
    "::mlir::DenseResourceElementsAttr":$source,
    "::mlir::DenseResourceElementsAttr":$ptx,
    "::mlir::ArrayAttr":$cubin_archs,
    "::mlir::ArrayAttr":$cubins);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Dlc_KernelCodeAttr : AttrDef<Dlc_Dialect, "KernelCode"> {
  let mnemonic = "kernel_code";
  let summary = "Where a kernel's code is";
  let description = [{
    A `dlc.kernel` op's `dlc.code` (dlc-codegen writes it): the exported
    `symbol` of library `library` (an index into `dlc.libraries`) that runs
    it on the CPU or a simulated GPU, and for a kernel a real GPU runs, its
    launch: `cuda_entry` in CUDA module `cuda_module` with its grid, block and
    dynamic shared memory.

    ```mlir
    #dlc.kernel_code<library = 0, symbol = "k0_entry">
    #dlc.kernel_code<library = 0, symbol = "k1_entry", cuda_module = 0, cuda_entry = "k1",
                     grid = [64, 1, 1], block = [256, 1, 1]>
    ```
  }];
  let parameters = (ins
    "int64_t":$library,
    StringRefParameter<"the exported function">:$symbol,
    DefaultValuedParameter<"int64_t", "-1", "the CUDA module of its launch">:$cuda_module,
    OptionalParameter<"::mlir::StringAttr", "the __global__ function">:$cuda_entry,
    OptionalParameter<"::mlir::DenseI64ArrayAttr", "the launch grid">:$grid,
    OptionalParameter<"::mlir::DenseI64ArrayAttr", "the launch block">:$block,
    DefaultValuedParameter<"int64_t", "0", "dynamic shared memory bytes">:$shared_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The optional pin every compute op carries.
defvar DevicePin = (ins OptionalAttr<Dlc_DeviceAttr>:$device);

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Signed integers are signless (i8 ... i64), unsigned ones ui8 ... ui64; ops
// pick signed or unsigned semantics (division, comparison, casts) by type.
defvar Dlc_FloatTypes = [F32, F16, BF16, F64];
defvar Dlc_NumericTypes = !listconcat(Dlc_FloatTypes,
    [I8, I16, I32, I64, UI8, UI16, UI32, UI64]);
// A ranked tensor of `types`, named in messages by `what` (MLIR's own
// summary lists all thirteen types).
class Dlc_TensorOf<list<Type> types, string what, Pred shape = HasStaticShapePred,
                   string kind = "statically shaped tensor">
    : Type<And<[IsRankedTensorTypePred, shape,
                Concat<"[](::mlir::Type elementType) { return ",
                       SubstLeaves<"$_self", "elementType", AnyTypeOf<types>.predicate>,
                       "; }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())">]>,
           kind # " of " # what # " values", "::mlir::RankedTensorType">;
def Dlc_FloatTensor : Dlc_TensorOf<Dlc_FloatTypes, "float (f32, f16, bf16, f64)">;
def Dlc_NumericTensor : Dlc_TensorOf<Dlc_NumericTypes,
    "numeric (float, i8 ... i64, ui8 ... ui64)">;
def Dlc_Tensor : Dlc_TensorOf<!listconcat(Dlc_NumericTypes, [I1]), "numeric or i1">;
def Dlc_IndexTensor : Dlc_TensorOf<[I32, I64], "index (i32, i64)">;
def Dlc_IntegerTensor : Dlc_TensorOf<[I8, I16, I32, I64, UI8, UI16, UI32, UI64],
    "integer (i8 ... i64, ui8 ... ui64)">;
// A tensor whose dimensions may be known only at run time (`?`): what a copy
// moves (the artifact sizes its buffer for the argument's dlc.max_shape).
// Compute ops keep static shapes.
def Dlc_RankedTensor : Dlc_TensorOf<!listconcat(Dlc_NumericTypes, [I1]), "numeric or i1",
                                    CPred<"true">, "ranked tensor">;

#endif // DLC_BASE_TD
