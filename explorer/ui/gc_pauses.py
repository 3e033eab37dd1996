"""Short garbage collections while sliders move: the long-lived objects are frozen out of them.

After start-up the process holds ~220,000 long-lived Python objects (Qt wrappers, numpy, torch,
tokenizers). A full (generation 2) collection walks every one of them: 130-150 ms measured on a
2-core machine, a visible hitch in a slider drag every few hundred frames. `gc.freeze()` moves the
objects alive at that moment into a permanent generation that collections skip, so later full
collections walk only what was made since. The window calls this once the device probe (which
imports torch) has answered, and again after each model opens (its tokenizer and tables). A language
switch (a new window) unfreezes first, so the old window's objects can be collected.
"""

from __future__ import annotations

import gc


def freeze_long_lived() -> int:
    """Collect what is garbage now, then freeze everything still alive; the frozen count."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
