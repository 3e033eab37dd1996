"""`--model` on tokens / export input / export learned-pe, and `export qk`: real checkpoints on the CLI.

    pe-explorer tokens TEXT --model PATH|smollm2|minilm --json
    pe-explorer export input --model PATH|smollm2|minilm --text T -o X.npy     X as the first layer gets it
    pe-explorer export learned-pe --model PATH -o P.npy                       the learned position table
    pe-explorer export qk --model PATH|smollm2 --text T [--layer 0] -o F.npz  q, k (rotated), logits
"""

from __future__ import annotations

import argparse

MODEL_HELP = "a Hugging Face folder, a .gguf file, or smollm2 / minilm (uses the model's own tokenizer)"


def add_parsers(kinds, inp: argparse.ArgumentParser, learned: argparse.ArgumentParser,
                tokens: argparse.ArgumentParser) -> None:
    """Add --model to the existing parsers and the `export qk` kind."""
    for p in (inp, learned, tokens):
        p.add_argument("--model", help=MODEL_HELP + "; overrides --tokenizer and the untrained table")
    qk = kinds.add_parser("qk", help="a model's layer-0 q, k (after RoPE) and logits per head, as .npz")
    qk.add_argument("--model", required=True, help=MODEL_HELP)
    qk.add_argument("--text", required=True)
    qk.add_argument("--layer", type=int, default=0, help="only 0 (later layers need the full forward pass)")
    qk.add_argument("-o", "--output", required=True, help="FILE.npz")


def handles(args) -> bool:
    """True when this module runs the command: `export qk`, or --model on tokens / input / learned-pe."""
    return getattr(args, "kind", None) == "qk" or bool(getattr(args, "model", None))


def _tokens_of(model, text: str):
    from explorer.errors import require

    tokenized = model.tokenize(text)
    require(len(tokenized) > 0, "the text has no tokens; give some text with --text")
    return tokenized


def _check_output(args) -> None:
    from pathlib import Path

    from explorer.errors import require
    from explorer.fileio import check_array_path

    if args.kind == "qk":
        from explorer.fileio import refuse_folder_name

        refuse_folder_name(args.output)
        require(Path(args.output).suffix.lower() == ".npz",
                f"output file must end in .npz, not {args.output!r}")
    else:
        check_array_path(args.output)


def _note(note, lang: str | None) -> None:
    """A NaN / ±inf note (explorer.backend.models.finite) on stderr, in the language of --lang (as the error
    lines): the file still holds what the model gives."""
    import sys

    from explorer.errors import localized

    if note:
        print(f"note: {localized(note, lang or 'en')}", file=sys.stderr)


def _export(args, model) -> int:
    from explorer.backend.models.finite import bad_rows, damaged_note, input_parts, listed, qk_note
    from explorer.compute.arrays import npz_bytes
    from explorer.errors import msg, require
    from explorer.fileio import atomic_write_bytes, save_array

    cfg = model.config
    if args.kind == "learned-pe":
        through = {"alibi": "ALiBi, a bias on the scores", "relative": "T5's relative bias on the scores"}
        require(cfg.position == "learned",
                f"{model.name} ({cfg.model_type}) has no learned position table: its positions enter "
                f"inside attention through {through.get(cfg.position, 'RoPE')}; try export qk")
        array = model.positions()
        bad = bad_rows(array)
        note = damaged_note([msg("the position rows %1", listed(bad))] if bad.size else [])
    elif args.kind == "input":
        tokenized = _tokens_of(model, args.text)
        array = model.input_x(tokenized.ids)
        note = damaged_note(input_parts([t.text for t in tokenized.tokens], tokenized.ids,
                                        model.rows(tokenized.ids), model.positions_of(tokenized.ids), array))
    else:
        tokenized = _tokens_of(model, args.text)
        qk = model.layer0_qk(tokenized.ids, layer=args.layer)
        arrays = {"q": qk.q_rot, "k": qk.k_rot, "logits": qk.logits, "q_plain": qk.q, "k_plain": qk.k,
                  "logits_plain": qk.logits_plain, "kv_head": qk.kv_head}
        if qk.window is not None:            # the layer's sliding window (query m reads m - window < n <= m)
            arrays["window"] = qk.window
        if qk.chunk is not None:             # Llama 4's chunked layer (query m reads n <= m, n // chunk == m // chunk)
            arrays["chunk"] = qk.chunk
        if qk.sinks is not None:             # GPT-OSS: each head's sink logit (H,)
            arrays["sinks"] = qk.sinks
        if model.config.position == "alibi":     # BLOOM: each head's slope (H,); its scores add slope · (n − m)
            arrays["alibi_slopes"] = model.alibi_slopes()
        path = atomic_write_bytes(args.output, npz_bytes(arrays))
        print(f"wrote {path} q {qk.q_rot.shape} k {qk.k_rot.shape} logits {qk.logits.shape}")
        _note(qk_note(model, qk, [t.text for t in tokenized.tokens], tokenized.ids), getattr(args, "lang", None))
        return 0
    path = save_array(args.output, array)
    print(f"wrote {path} {array.shape} {array.dtype}")
    _note(note, getattr(args, "lang", None))
    return 0


def run(args) -> int:
    """Run a --model command; InputError (one line, exit 2 in cli.main) for every bad input."""

    from explorer.backend.models.hf_folder import open_model
    from explorer.backend.tokens import tokens_to_json

    if args.command == "export":
        _check_output(args)                # before opening anything: a bad suffix costs nothing
    with open_model(args.model) as model:
        if args.command == "export":
            return _export(args, model)
        data = tokens_to_json(model.tokenize(args.text))
    return print_tokens(data, args.json)


def print_tokens(data: dict, as_json: bool) -> int:
    """`pe-explorer tokens`' output: JSON, or one line per token (index, id, span, text)."""
    import json

    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    for i, (tok, tid, span) in enumerate(zip(data["tokens"], data["ids"], data["spans"])):
        print(f"{i:>4}  {tid:>7}  {span[0]:>5}-{span[1]:<5} {tok}")
    return 0

