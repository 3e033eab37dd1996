"""NFC normalization that remembers where each normalized character came from (for token spans)."""

from __future__ import annotations

import unicodedata

import numpy as np


def nfc_map(text: str) -> tuple[str, np.ndarray, np.ndarray]:
    """NFC of text, and for each of its characters the span [start, end) of the text it came from.

    Text is cut into groups that normalize independently (a starter and its combining marks, merged with
    the next group when the two compose); inside a group the new characters share the old ones in order,
    so spans never overlap by more than one character.
    """
    n = len(text)
    if unicodedata.is_normalized("NFC", text):
        idx = np.arange(n)
        return text, idx, idx + 1
    cuts = [i for i in range(n) if i == 0 or unicodedata.combining(text[i]) == 0]   # starter clusters
    groups: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:] + [n]):
        if groups:
            s0, _ = groups[-1]
            prev, cur = text[s0:a], text[a:b]
            if unicodedata.normalize("NFC", prev + cur) != (unicodedata.normalize("NFC", prev)
                                                            + unicodedata.normalize("NFC", cur)):
                groups[-1] = (s0, b)     # they compose across the cut (Hangul jamo, some Indic vowel signs)
                continue
        groups.append((a, b))
    parts = [unicodedata.normalize("NFC", text[a:b]) for a, b in groups]
    if "".join(parts) != unicodedata.normalize("NFC", text):
        parts, groups = [unicodedata.normalize("NFC", text)], [(0, n)]           # never wrong, only coarse
    starts, ends = [], []
    for (a, b), p in zip(groups, parts):        # spread a group's m new characters over its n old ones
        k, n, m = np.arange(len(p)), b - a, len(p)
        starts.append(a + (k * n) // m)
        ends.append(a + ((k + 1) * n) // m if m <= n else a + -(-((k + 1) * n) // m))   # disjoint if m <= n
    starts = np.concatenate(starts) if starts else np.zeros(0, np.int64)
    ends = np.concatenate(ends) if ends else np.zeros(0, np.int64)
    return "".join(parts), starts, ends
