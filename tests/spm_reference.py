"""llama.cpp's SentencePiece tokenizer in plain Python, to test the `tokenizers` rebuild against.

A line-by-line port of ggml-org/llama.cpp src/llama-vocab.cpp: `llama_vocab::impl::tokenize`, case
LLAMA_VOCAB_TYPE_SPM (the text cut at special / user-defined tokens, each raw fragment prefixed with a space
when add_space_prefix is set and it is the first or follows a token, spaces escaped to U+2581) and
`llm_tokenizer_spm_session` (UTF-8 characters as symbols; a max-heap of adjacent pairs whose concatenation is a
token, by that token's score, ties to the leftmost; merged symbols resegmented through rev_merge; what is left
out of the vocabulary as <0xNN> byte tokens).
"""

from __future__ import annotations

import heapq


def _utf8_len(first: int) -> int:
    return (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4)[first >> 4]


class SpmReference:
    def __init__(self, tokens: list[str], scores, specials: list[int], add_space_prefix: bool = True,
                 add_bos: bool = True, bos: int = 1):
        self.to_id = {}
        for i, t in enumerate(tokens):
            self.to_id[t.encode("utf-8")] = i                 # token_to_id[word] = i: the last id wins
        self.scores = [float(s) for s in scores]
        self.specials = sorted(((tokens[i], i) for i in specials), key=lambda p: -len(p[0]))
        self.prefix, self.add_bos, self.bos = add_space_prefix, add_bos, bos

    def _partition(self, text: str) -> list[str | int]:
        """tokenizer_st_partition: longest special tokens first, each splitting the remaining raw text."""
        pieces: list[str | int] = [text]
        for token, tid in self.specials:
            out: list[str | int] = []
            for p in pieces:
                if isinstance(p, int):
                    out.append(p)
                    continue
                parts = p.split(token)
                for k, part in enumerate(parts):
                    if part:
                        out.append(part)
                    if k < len(parts) - 1:
                        out.append(tid)
            pieces = out
        return pieces

    def encode(self, text: str) -> list[int]:
        out = [self.bos] if self.add_bos else []
        prev_special = True
        for fragment in self._partition(text):
            if isinstance(fragment, int):
                out.append(fragment)
                prev_special = True
                continue
            raw = (" " if self.prefix and prev_special else "") + fragment
            self._session(raw.replace(" ", "\u2581").encode("utf-8"), out)
            prev_special = False
        return out

    def _session(self, text: bytes, out: list[int]) -> None:
        sym = []                                              # [start, n, prev, next]
        offs = 0
        while offs < len(text):
            n = min(_utf8_len(text[offs]), len(text) - offs)
            sym.append([offs, n, len(sym) - 1, -1 if offs + n == len(text) else len(sym) + 1])
            offs += n
        heap, rev_merge = [], {}

        def add(left: int, right: int) -> None:
            if left == -1 or right == -1:
                return
            piece = text[sym[left][0]:sym[left][0] + sym[left][1] + sym[right][1]]
            tid = self.to_id.get(piece)
            if tid is None:
                return
            heapq.heappush(heap, (-self.scores[tid], left, right, len(piece)))
            rev_merge[piece] = (left, right)

        for i in range(1, len(sym)):
            add(i - 1, i)
        while heap:
            _, left, right, size = heapq.heappop(heap)
            ls, rs = sym[left], sym[right]
            if ls[1] == 0 or rs[1] == 0 or ls[1] + rs[1] != size:
                continue
            ls[1] += rs[1]
            rs[1] = 0
            ls[3] = rs[3]
            if rs[3] >= 0:
                sym[rs[3]][2] = left
            add(ls[2], left)
            add(left, ls[3])
        snapshot = [list(s) for s in sym]

        def resegment(s) -> None:
            piece = text[s[0]:s[0] + s[1]]
            tid = self.to_id.get(piece)
            if tid is not None:
                out.append(tid)
                return
            if piece not in rev_merge:
                out.extend(self.to_id[f"<0x{b:02X}>".encode()] for b in piece)
                return
            a, b = rev_merge[piece]
            resegment(snapshot[a])
            resegment(snapshot[b])

        i = 0 if sym else -1
        while i != -1:
            resegment(sym[i])
            i = sym[i][3]
