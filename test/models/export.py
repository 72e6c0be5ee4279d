#!/usr/bin/env python3
"""Exports the example PyTorch models to ONNX, with an input and PyTorch's
outputs as .npy, for dlc's end-to-end tests and figures.

    /usr/bin/python3 test/models/export.py OUTPUT_DIR [--models mlp,resnet18,encoder,bert]
                                          [--resnet-size 64] [--threads 1] [--dynamic-batch N]

Debian's python3-torch and python3-torchvision on the CPU; random weights from
fixed seeds (nothing is downloaded). Each model lands in OUTPUT_DIR/<name>/:
model.onnx (opset 13, as torch.onnx.export writes it), x.npy, y.npy.

- mlp: 784 -> 256 -> 256 -> 10 with GELU, batch 8 (Gemm + Erf chains).
- resnet18: torchvision's ResNet-18 (1000 classes), batch 1, 3 x SIZE x SIZE
  (64 by default for the tests; 224 for the figures).
- encoder: 2 pre-LayerNorm transformer blocks (d 256, 4 heads, MLP 1024, GELU),
  batch 2, 128 tokens (the sizes of test/models/encoder.mlir); written out op by op so that the export does not depend
  on nn.TransformerEncoderLayer's fused fast path. LayerNorm and GELU become
  opset-13 chains and nn.Linear on 3-D inputs MatMul + Add: the patterns dlc's
  importer raises back.
- gpt: a GPT-style causal decoder on 1 x 40 token ids (vocab 512, 2 blocks,
  d 128, 4 heads, GPT-2's sliced tril mask with masked_fill, a tied LM head).
- scripted: a TorchScript module with a loop and an `if` on a run-time value
  (ONNX If).
- bert: token ids (2 x 32, int64) through nn.Embedding, nn.TransformerEncoder
  (2 layers, d 128, 4 heads, GELU) and a linear head on token 0, as PyTorch's
  own layers export (Gather, MatMul chains, Slice, the LayerNorm chain).
"""
import argparse
import math
import os

import numpy as np
import torch
from torch import nn


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.head = nn.Linear(784, 256), nn.Linear(256, 256), nn.Linear(256, 10)
        self.act = nn.GELU()

    def forward(self, x):
        return self.head(self.act(self.fc2(self.act(self.fc1(x)))))


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.scale = 1 / math.sqrt(d // heads)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        split = lambda y: y.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        att = torch.softmax(q @ k.transpose(-1, -2) * self.scale, dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, d, heads, hidden):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d), Attention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Bert(nn.Module):
    """A BERT-like classifier from PyTorch's own layers: token embedding, learned
    positions, nn.TransformerEncoder (2 layers, d 128, 4 heads, GELU), a head on
    token 0. Sequence-first, because PyTorch 1.13 exports batch_first encoder
    layers in eval mode as its fused fast path, which has no ONNX form."""

    def __init__(self, vocab=1000, tokens=32, d=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, tokens, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(d, 2)

    def forward(self, ids):
        h = self.enc((self.emb(ids) + self.pos).transpose(0, 1)).transpose(0, 1)
        return self.head(h[:, 0])


class Encoder(nn.Module):
    def __init__(self, d=256, heads=4, hidden=1024, layers=2):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(d, heads, hidden) for _ in range(layers)])
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(self.blocks(x))


class KeywordSpotter(nn.Module):
    """A 1-D conv net over 40 mel bands x 101 frames (keyword spotting):
    Conv1d, BatchNorm1d, MaxPool1d (padded, ceil_mode), AvgPool1d, a strided
    dilated Conv1d, global average, a linear layer to 12 keywords."""
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(40, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
            nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True),
            nn.Conv1d(64, 64, 5, stride=2, dilation=2, groups=4), nn.ReLU(),
            nn.AvgPool1d(2))
        self.head = nn.Linear(64, 12)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=2))


class LstmClassifier(nn.Module):
    """A 2-layer LSTM over 30 steps of 20 features, its last output to 8
    classes (nn.LSTM exports ONNX LSTM ops, one per layer)."""
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(20, 32, num_layers=2, batch_first=True)
        self.head = nn.Linear(32, 8)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.head(y[:, -1])


class GruTagger(nn.Module):
    """A bidirectional GRU (exported with linear_before_reset = 1) tagging
    each of 25 steps."""
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(16, 24, bidirectional=True)
        self.head = nn.Linear(48, 5)

    def forward(self, x):
        y, h = self.gru(x)
        return self.head(y) + self.head(torch.cat([h[0], h[1]], dim=1)).unsqueeze(0)


class CausalSelfAttention(nn.Module):
    """GPT-2's attention: one qkv projection, a lower-triangular mask buffer
    sliced to the sequence length and applied with masked_fill(-inf)."""
    def __init__(self, d, heads, max_tokens):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.register_buffer("mask", torch.tril(torch.ones(max_tokens, max_tokens))
                             .view(1, 1, max_tokens, max_tokens))

    def forward(self, x):
        b, t, d = x.size()
        q, k, v = self.qkv(x).split(d, dim=2)
        split = lambda y: y.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        return self.proj((att @ v).transpose(1, 2).contiguous().view(b, t, d))


class GptBlock(nn.Module):
    def __init__(self, d, heads, max_tokens):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d), CausalSelfAttention(d, heads, max_tokens)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Gpt(nn.Module):
    """A GPT-style causal decoder: token and learned position embeddings, 2
    pre-LayerNorm blocks of causal self-attention (d 128, 4 heads), a final
    LayerNorm and a language-model head tied to the token embedding; logits
    for every position."""
    def __init__(self, vocab=512, d=128, layers=2, max_tokens=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_tokens, d)
        self.blocks = nn.Sequential(*[GptBlock(d, 4, max_tokens) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device).unsqueeze(0)
        return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(positions))))


class ScriptedBranches(nn.Module):
    """TorchScript control flow: a loop over a fixed range (the exporter
    unrolls it) and an `if` on a run-time value (exported as ONNX If with
    its condition computed from the input; dlc runs both branches and
    selects). Exported through torch.jit.script."""
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = x
        for i in range(3):
            h = torch.tanh(self.fc(h)) + x * i
        if bool(h.sum() > 0):
            y = h * 2
        else:
            y = -h
        return y


def with_random_layer_norms(model):
    """LayerNorm's default gamma 1 / beta 0 would hide a swapped operand."""
    for m in model.modules():
        if isinstance(m, nn.LayerNorm):
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    return model


def build(name, resnet_size):
    torch.manual_seed(0)
    if name == "mlp":
        return Mlp(), torch.randn(8, 784)
    if name == "resnet18":
        import torchvision
        model = torchvision.models.resnet18(weights=None)
        # Non-trivial batch-norm statistics, so that folding them matters.
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
        return model, torch.randn(1, 3, resnet_size, resnet_size)
    if name == "encoder":
        return with_random_layer_norms(Encoder()), torch.randn(2, 128, 256)
    if name == "bert":
        return Bert(), torch.randint(0, 1000, (2, 32))
    if name == "lstm":
        return LstmClassifier(), torch.randn(3, 30, 20)
    if name == "gru":
        return GruTagger(), torch.randn(25, 2, 16)
    if name == "lstm_long":  # past the 32 steps dlc unrolls: dlc.loop
        return LstmClassifier(), torch.randn(3, 100, 20)
    if name == "gru_long":
        return GruTagger(), torch.randn(60, 2, 16)
    if name == "scripted":
        return ScriptedBranches(), torch.randn(2, 8)
    if name == "gpt":
        return with_random_layer_norms(Gpt()), torch.randint(0, 512, (1, 40))
    if name == "kws":
        model = KeywordSpotter()
        for m in model.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
        return model, torch.randn(4, 40, 101)
    raise SystemExit("unknown model " + name)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--models", default="mlp,resnet18,encoder,bert,kws,lstm,gru,lstm_long,gru_long,gpt,scripted")
    parser.add_argument("--resnet-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dynamic-seq", default="",
                        help="export dim 1 of x and y as dim_param 'seq' (models with token "
                             "ids [1, t]: gpt), with x.N.npy and y.N.npy at each of these "
                             "comma-separated lengths (the last is the bound)")
    parser.add_argument("--dynamic-batch", type=int, default=0,
                        help="export dim 0 of x and y as dim_param 'batch', with x.npy at this "
                             "batch (dlc compile --max-dim=batch=N reads it)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    for name in args.models.split(","):
        model, x = build(name, args.resnet_size)
        model.eval()
        dynamic = None
        if args.dynamic_batch:
            shape = (args.dynamic_batch,) + tuple(x.shape[1:])
            x = (torch.randn(shape) if x.is_floating_point()
                 else torch.randint(0, int(x.max()) + 1, shape))
            dynamic = {"x": {0: "batch"}, "y": {0: "batch"}}
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        if name == "scripted":
            model = torch.jit.script(model)
        with torch.no_grad():
            y = model(x)
            torch.onnx.export(model, (x,), os.path.join(folder, "model.onnx"), opset_version=13,
                              input_names=["x"], output_names=["y"], do_constant_folding=True,
                              dynamic_axes=dynamic)
        np.save(os.path.join(folder, "x.npy"), x.numpy())
        np.save(os.path.join(folder, "y.npy"), y.numpy())
        if args.dynamic_seq:
            # PyTorch at each length; the export traces the bound's.
            lengths = [int(n) for n in args.dynamic_seq.split(",")]
            generator = torch.Generator().manual_seed(3)
            ids = torch.randint(0, int(x.max()) + 1, (1, lengths[-1]), generator=generator)
            with torch.no_grad():
                for n in lengths:
                    np.save(os.path.join(folder, "x.%d.npy" % n), ids[:, :n].numpy())
                    np.save(os.path.join(folder, "y.%d.npy" % n), model(ids[:, :n]).numpy())
                torch.onnx.export(model, (ids,), os.path.join(folder, "model.onnx"),
                                  opset_version=13, input_names=["x"], output_names=["y"],
                                  do_constant_folding=True,
                                  dynamic_axes={"x": {1: "seq"}, "y": {1: "seq"}})
        print("%s: %s -> %s" % (name, tuple(x.shape), tuple(y.shape)))


if __name__ == "__main__":
    main()
