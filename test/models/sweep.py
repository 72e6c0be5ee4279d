#!/usr/bin/python3
"""The model sweep of issue 23: real models, exported as a user would, compiled
by dlc and matched against PyTorch on the CPU and as a 2-stage pipeline over
the CPU and two simulated GPUs.

    /usr/bin/python3 test/models/sweep.py [--set ci|default|all] [--models a,b]
        [--dlc build/bin/dlc] [--work DIR] [--placements cpu,pipeline2]
        [--max-params 100e6] [--json results.json]

Models: every classification model torchvision 0.14 lists, at 1x3x224x224
(299 for Inception v3), plus four of test/models/export.py's own kind: a 1-D
conv keyword spotter (kws), a 2-layer LSTM classifier (lstm), a bidirectional
GRU tagger (gru) and a GPT-style causal decoder (gpt). --set=ci is a handful
of small ones (what ctest runs), default is everything up to --max-params,
all is everything (the long mode: about an hour on 2 cores).

Weights are random but realistic (`realistic`): the models' own
initialisation, zeroed parameters (some heads) refilled from N(0, 0.02), every
Conv and Linear given zero-mean, unit-spread outputs in one forward pass
(data-dependent initialisation), every
batch norm's running statistics measured on random batches in training mode;
inputs have structure (images: an upsampled 7x7 pattern plus noise), since
white noise averages out in global pools. A torchvision model whose argmaxes
are still the same for its 4 random inputs gets its head refitted to the
principal directions of its features (`fit_head`, with a note on stderr); one
that stays so is reported as degenerate: its output would not show whether
dlc computed anything.

Each model is exported with torch.onnx.export at opset 14 (the exporter's own
failures are listed, not counted against dlc), compiled once per placement
(wall time of `dlc compile` recorded) and run on the 4 inputs:
  cpu        `dlc compile model.onnx`
  pipeline2  `--devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda`,
             run with `--gpu=sim --check-ordering` (GPU kernels as host code)
  batch      (not by default) a symbolic batch (issue 23) as a user makes
             one: the model exported again with dynamic_axes on dim 0,
             `--max-dim=batch=4`; run once on the 4 inputs stacked and once on
             the first 3; unit i must match input i's output
  batch-fixed (not by default) the fixed-batch export made symbolic with
             `--input-shape=x=?xDIMS --max-dim=batch=4` (works unless the
             export keeps its batch in shapes, e.g. a Reshape's)
A run matches when max|dlc - torch| <= 1e-4 * max|torch| for every input.
Beside it, both dlc's and PyTorch's f32 outputs are measured against the
model run in float64 (`[vs f64: torch E, dlc E]`), so that a difference near
the tolerance shows whose rounding it is. Where PyTorch's own error exceeds
1e-5 and dlc's is at most twice it, the model is reported ill-conditioned
(random weights that amplify rounding; still a failure, named apart).
Prints one line per model and placement, then a summary; exits non-zero when
any exported model is refused, fails or differs.
"""
import argparse
import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "bench"))
import export as own_models  # noqa: E402  (test/models/export.py)
from models_bench import export_onnx  # noqa: E402  (eval-mode attention's workaround)
from compile_sweep import first_error  # noqa: E402

CI_MODELS = ["kws", "lstm", "gru", "gpt", "squeezenet1_1", "shufflenet_v2_x0_5",
             "mobilenet_v3_small", "mnasnet0_5"]
OWN_MODELS = ["kws", "lstm", "gru", "gpt"]
TOLERANCE = 1e-4
# PyTorch's own f32 output further than this from float64's: the instance
# amplifies rounding so much that 1e-4 against PyTorch says little about dlc.
ILL_CONDITIONED = 1e-5
PLACEMENTS = {
    "cpu": ([], []),
    # One artifact for batches 1..4 (check_symbolic_batch): of an export with
    # dynamic_axes, or of the fixed-batch export with --input-shape=x=?x...
    "batch": ([], []),
    "batch-fixed": ([], []),
    "pipeline2": (["--devices=cpu,cuda:0,cuda:1", "--placement=pipeline:2", "--no-cuda"],
                  ["--gpu=sim", "--check-ordering"]),
}


def image(size):
    """A random image with structure at several scales (7x7 and 28x28
    patterns upsampled, plus noise), its own contrast and colour cast. White
    noise alone averages out in every global pool, so that any net's output
    hardly depends on it; smooth patterns alone leave some filters' outputs
    nearly constant."""
    def pattern(cells, scale):
        coarse = torch.randn(1, 3, cells, cells) * scale
        return nn.functional.interpolate(coarse, size=(size, size), mode="bilinear",
                                         align_corners=False)
    contrast = float(torch.empty(1).uniform_(0.5, 2.0))
    colour = torch.randn(1, 3, 1, 1) * 0.5
    return (pattern(7, 1.5) + pattern(28, 0.5) + 0.3 * torch.randn(1, 3, size, size)) * contrast + colour


def sequence(shape, batch_dim):
    """Random features with a per-sample offset along the sequence, for the
    same reason."""
    offset_shape = list(shape)
    offset_shape[1 - batch_dim] = 1
    return torch.randn(shape) + 2 * torch.randn(offset_shape)


def unit_variance_pass(model, x):
    """Data-dependent initialisation (after Salimans and Kingma, 2016) in one
    forward pass: every Conv and Linear, in the order they run, has its weight
    divided by the spread of its outputs across channels, positions and
    samples and its bias set so that each channel's mean is 0; downstream
    layers see the rescaled output. Layers without a bias are left alone: a
    norm follows them (dividing them without removing their mean would leave
    the norm to subtract a large mean from nearly equal values)."""
    def rescale(module, inputs, output):
        if module.bias is None:  # a norm follows, as in every model here: it scales
            return output
        channels = 1 if isinstance(module, nn.modules.conv._ConvNd) else output.dim() - 1
        rows = output.transpose(channels, -1).reshape(-1, output.shape[channels])
        if rows.shape[0] < 2:
            return output
        mean = rows.mean(dim=0)
        # One spread for the layer (the channels' RMS): dividing each channel
        # by its own would blow a nearly constant channel up, and with it its
        # rounding, until f32 itself no longer computes the model.
        spread = rows.var(dim=0).mean().sqrt().clamp(min=1e-6).expand_as(mean)
        per_channel = [-1] + [1] * (module.weight.dim() - 1)
        module.weight.div_(spread.view(per_channel))
        along = [-1] + [1] * (output.dim() - channels - 1)
        module.bias.sub_(mean).div_(spread)
        return (output - mean.view(along)) / spread.view(along)
    hooks = [m.register_forward_hook(rescale) for m in model.modules()
             if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Linear))]
    try:
        with torch.no_grad():
            model(x)
    finally:
        for h in hooks:
            h.remove()


def realistic(model, calibration_batch):
    """Zeroed parameters (some heads) refilled, then one calibration pass in
    which every Conv and Linear gets zero-mean, unit-spread outputs and every
    batch norm runs on batch statistics and keeps them as its running
    statistics (a cumulative average): weights whose activations stay in range
    through deep nets, as a trained model's, and layers calibrated on the very
    activations the evaluated model will see."""
    with torch.no_grad():
        for p in model.parameters():
            if not p.any():
                p.normal_(0, 0.02)
    model.train()
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None
        elif isinstance(m, nn.modules.dropout._DropoutNd):
            m.eval()
    unit_variance_pass(model, calibration_batch())
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                # A channel nearly constant over the calibration batch would
                # be scaled up until its rounding dominates: keep each
                # variance within 100x of the layer's mean.
                m.running_var.clamp_(min=float(m.running_var.mean()) * 1e-2)
    return model.eval()


def fit_head(model, calibration_batch, kept=0.05):
    """For a model whose calibrated output has one winner for almost every
    input. Deep random nets collapse their features: most images give nearly
    the same feature vector and a few give outliers far from it, so that a
    random head ranks the classes the same way for all the others. The head
    (the Linear that produces the model's output) is refitted to the bulk of
    the features over two calibration batches: centred on their median, the
    images within 3x the median distance of it, and their principal
    directions with at least `kept` of the largest spread; logits = R z, z the
    coordinates along those directions each scaled to unit spread, R random.
    As a trained head, it reads the directions in which ordinary images
    differ. Returns False when the model has no such head."""
    linears = [m for m in model.modules() if isinstance(m, nn.Linear)]
    if not linears:
        return False
    head, seen = linears[-1], {}
    hook = head.register_forward_hook(lambda m, i, o: seen.update(input=i[0], output=o))
    try:
        with torch.no_grad():
            out = model(torch.cat([calibration_batch(), calibration_batch()]))
    finally:
        hook.remove()
    if "output" not in seen or not torch.equal(seen["output"], out) or seen["input"].dim() != 2:
        return False
    features = seen["input"].double()
    centre = features.median(dim=0).values
    distance = (features - centre).norm(dim=1)
    bulk = features[distance <= 3 * distance.median()]
    _, spreads, directions = torch.linalg.svd(bulk - centre, full_matrices=False)
    k = max(2, int((spreads >= kept * spreads[0]).sum()))
    scale = (bulk.shape[0] - 1) ** 0.5 / spreads[:k]
    mixing = torch.randn(head.out_features, k, dtype=torch.float64)
    weight = mixing @ (scale[:, None] * directions[:k])
    with torch.no_grad():
        head.weight.copy_(weight)
        if head.bias is not None:
            head.bias.copy_(-weight @ centre)
    return True


def build(name, max_params=float("inf")):
    """(model, 4 inputs) with fixed seeds; (model, None) uncalibrated when it
    has more than max_params parameters."""
    torch.manual_seed(0)
    if name in OWN_MODELS:
        model, x = own_models.build(name, 64)
        if x.dtype == torch.int64:
            make = lambda: torch.randint(0, int(x.max()) + 1, x.shape)
        else:
            make = lambda: sequence(x.shape, batch_dim=1 if name == "gru" else 0)
        model = realistic(model, make)
        return model, [make() for _ in range(4)]
    import torchvision
    model = torchvision.models.get_model(name, weights=None)
    if sum(p.numel() for p in model.parameters()) > max_params:
        return model, None
    size = 299 if name == "inception_v3" else 224
    calibration_batch = lambda: torch.cat([image(size) for _ in range(16)])
    model = realistic(model, calibration_batch)
    inputs = [image(size) for _ in range(4)]
    if len(winners(model, inputs)) < 2 and fit_head(model, calibration_batch):
        print("%s: one argmax for 4 inputs, head fitted to the features' principal directions"
              % name, file=sys.stderr)
    return model, inputs


def winners(model, inputs):
    """The distinct argmax tuples of the model's outputs on the inputs."""
    with torch.no_grad():
        return distinct_argmaxes([model(x).numpy() for x in inputs])


def distinct_argmaxes(outputs):
    return {tuple(np.argmax(o.reshape(-1, o.shape[-1]), axis=1)) for o in outputs}


def float64_outputs(model, inputs):
    """The model in float64 on the same inputs: the ground truth against
    which dlc's and PyTorch's own f32 rounding are each measured (None where
    a model does not run in float64)."""
    try:
        exact = copy.deepcopy(model).double()
        return [exact(x.double() if x.is_floating_point() else x).numpy() for x in inputs]
    except Exception:
        return None


def relative_error(got, want):
    return float(np.max(np.abs(got.astype(np.float64) - want))) / max(float(np.max(np.abs(want))), 1e-30)


def judged(result, error, f64_error):
    """`result` with its largest error against PyTorch (and float64) and verdict."""
    result["error"] = error
    result["verdict"] = "ok" if error <= TOLERANCE else "differs"
    if f64_error is not None:
        result["f64_error"] = f64_error
    return result


def check_placement(dlc, folder, placement, refs, exact):
    compile_flags, run_flags = PLACEMENTS[placement]
    artifact = folder / (placement + ".dlcm")
    start = time.monotonic()
    proc = subprocess.run([dlc, "compile", str(folder / "model.onnx"), "-o", str(artifact)]
                          + compile_flags, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    result = {"compile_s": round(time.monotonic() - start, 2)}
    if proc.returncode != 0:
        result["verdict"] = "refused: " + first_error(proc.stdout, 200)
        return result
    worst, worst_exact = 0.0, 0.0
    for i, ref in enumerate(refs):
        out = folder / ("out-%s-%d" % (placement, i))
        run = subprocess.run([dlc, "run", str(artifact), "--input", "x=%s/x%d.npy" % (folder, i),
                              "--output-dir", str(out)] + run_flags,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            result["verdict"] = "run failed: " + first_error(run.stdout, 200)
            return result
        got = np.load(out / "y.npy")
        if got.shape != ref.shape:
            result["verdict"] = "shape %s, PyTorch %s" % (got.shape, ref.shape)
            return result
        worst = max(worst, relative_error(got, ref))
        if exact is not None:
            worst_exact = max(worst_exact, relative_error(got, exact[i]))
    return judged(result, worst, worst_exact if exact is not None else None)


def check_symbolic_batch(dlc, folder, refs, exact, fixed):
    """The `batch` placements: one artifact for batches 1..4, run at 4 and 3."""
    xs = [np.load(folder / ("x%d.npy" % i)) for i in range(len(refs))]
    dims = "x".join(str(d) for d in xs[0].shape[1:])
    artifact = folder / ("batch-fixed.dlcm" if fixed else "batch.dlcm")
    start = time.monotonic()
    # Bounded by the 4 inputs stacked (each may be a batch of its own: kws).
    bound = sum(x.shape[0] for x in xs)
    onnx, shape = ("model.onnx", ["--input-shape=x=?x" + dims]) if fixed else ("dynamic.onnx", [])
    proc = subprocess.run([dlc, "compile", str(folder / onnx), "-o", str(artifact),
                           "--max-dim=batch=%d" % bound] + shape,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    result = {"compile_s": round(time.monotonic() - start, 2)}
    if proc.returncode != 0:
        result["verdict"] = "refused: " + first_error(proc.stdout, 200)
        return result
    worst, worst_exact = 0.0, 0.0
    for n in (len(xs), len(xs) - 1):
        np.save(folder / ("batch%d.npy" % n), np.concatenate(xs[:n]))
        out = folder / ("out-%s%d" % (artifact.stem, n))
        run = subprocess.run([dlc, "run", str(artifact), "--input", "x=%s/batch%d.npy" % (folder, n),
                              "--output-dir", str(out)], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            result["verdict"] = "run failed at batch %d: %s" % (n, first_error(run.stdout, 200))
            return result
        got = np.load(out / "y.npy")
        rows = refs[0].shape[0]
        for i in range(n):
            unit = got[i * rows:(i + 1) * rows]
            if unit.shape != refs[i].shape:
                result["verdict"] = "batch %d: unit shape %s, PyTorch %s" % (n, unit.shape, refs[i].shape)
                return result
            worst = max(worst, relative_error(unit, refs[i]))
            if exact is not None:
                worst_exact = max(worst_exact, relative_error(unit, exact[i]))
    return judged(result, worst, worst_exact if exact is not None else None)


def sweep_one(name, args):
    model, inputs = build(name, args.max_params)
    params = sum(p.numel() for p in model.parameters())
    record = {"name": name, "params": params}
    if inputs is None:
        record["verdict"] = "skipped (over --max-params)"
        return record
    folder = Path(args.work) / name
    folder.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        refs = [model(x).numpy().astype(np.float64) for x in inputs]
        exact = float64_outputs(model, inputs)
    if len(distinct_argmaxes(refs)) < 2:
        record["verdict"] = "degenerate (one argmax for 4 inputs)"
        return record
    for i, x in enumerate(inputs):
        np.save(folder / ("x%d.npy" % i), x.numpy())
    onnx = folder / "model.onnx"
    try:
        with torch.no_grad():
            export_onnx(model, inputs[0], onnx, opset=14)
    except Exception as e:  # PyTorch 1.13's exporter lacks some of its own ops
        record["verdict"] = "not exported (PyTorch): " + str(e).splitlines()[0][:160]
        return record
    if "batch" in args.placements:
        try:
            with torch.no_grad():
                export_onnx(model, inputs[0], folder / "dynamic.onnx", opset=14, dynamic_batch=True)
        except Exception as e:
            record["verdict"] = "not exported with dynamic_axes (PyTorch): " + str(e).splitlines()[0][:160]
            return record
    record["placements"] = {
        p: check_symbolic_batch(args.dlc, folder, refs, exact, p == "batch-fixed")
        if p.startswith("batch") else check_placement(args.dlc, folder, p, refs, exact)
        for p in args.placements}
    if exact is not None:
        record["torch_f32_error"] = max(relative_error(r, e) for r, e in zip(refs, exact))
        if record["torch_f32_error"] > ILL_CONDITIONED:
            for r in record["placements"].values():
                if r["verdict"] == "differs" and r["f64_error"] <= 2 * record["torch_f32_error"]:
                    r["verdict"] = "ill-conditioned"
    bad = [r["verdict"] for r in record["placements"].values() if r["verdict"] != "ok"]
    record["verdict"] = "ok" if not bad else (
        "ill-conditioned" if all(v == "ill-conditioned" for v in bad) else "failed")
    return record


def describe(record):
    head = "%-22s %7.1fM" % (record["name"], record["params"] / 1e6)
    if "placements" not in record:
        return head + "  " + record["verdict"]
    parts = []
    for p, r in record["placements"].items():
        text = "%s %s %.1f s" % (p, r["verdict"], r["compile_s"])
        if "error" in r:
            text += " err %.1e" % r["error"]
        parts.append(text)
    line = head + "  " + " | ".join(parts)
    if "torch_f32_error" in record:
        cpu = record["placements"].get("cpu", {})
        line += "  [vs f64: torch %.1e%s]" % (record["torch_f32_error"], ", dlc %.1e" % cpu["f64_error"]
                                              if "f64_error" in cpu else "")
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dlc", default="build/bin/dlc")
    ap.add_argument("--work", default="build/sweep")
    ap.add_argument("--set", choices=["ci", "default", "all"], default="default")
    ap.add_argument("--models", default="")
    ap.add_argument("--placements", default="cpu,pipeline2")
    ap.add_argument("--max-params", type=float, default=100e6)
    ap.add_argument("--json", default="")
    ap.add_argument("--threads", type=int, default=2, help="PyTorch's threads")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    args.placements = args.placements.split(",")
    for p in args.placements:
        if p not in PLACEMENTS:
            sys.exit("unknown placement '%s' (have %s)" % (p, ", ".join(PLACEMENTS)))
    if args.models:
        names = args.models.split(",")
    elif args.set == "ci":
        names = CI_MODELS
    else:
        import torchvision
        names = OWN_MODELS + torchvision.models.list_models(module=torchvision.models)
        if args.set == "all":
            args.max_params = float("inf")
    records = []
    for name in names:
        start = time.monotonic()
        record = sweep_one(name, args)
        record["total_s"] = round(time.monotonic() - start, 1)
        records.append(record)
        print(describe(record), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1))
    checked = [r for r in records if "placements" in r]
    failed = [r for r in checked if r["verdict"] != "ok"]
    degenerate = [r for r in records if r["verdict"].startswith("degenerate")]
    others = len(records) - len(checked) - len(degenerate)
    ill = [r for r in failed if r["verdict"] == "ill-conditioned"]
    print("RESULT sweep: %d models checked, %d match on %s, %d failed (%s; %d of them "
          "ill-conditioned); %d degenerate; %d not exported or skipped"
          % (len(checked), len(checked) - len(failed), "+".join(args.placements), len(failed),
             ",".join(r["name"] for r in failed) or "none", len(ill), len(degenerate), others))
    return 1 if failed or degenerate else 0


if __name__ == "__main__":
    sys.exit(main())
