"""The model types whose own module reads their config.json (their class's key names and defaults). No Qt.

config.model_config takes ModelConfig's common fields from OWN_FIELDS[model_type](cfg), a vocab_size its config.json
leaves out from CLASS_VOCAB, and the stored row of position 0 from FIRST_ROW.
"""

from __future__ import annotations

from explorer.backend.models import bart, gpt_neo, m2m100, xglm
from explorer.backend.models.bloom import bloom_fields
from explorer.backend.models.falcon import falcon_fields
from explorer.backend.models.gpt_bigcode import bigcode_fields
from explorer.backend.models.mpt import mpt_fields
from explorer.backend.models.t5 import mt5_fields, t5_fields, umt5_fields

# model_type -> its fields (ModelConfig's common ones and "own"): models.bloom, mpt, falcon, gpt_neo, gpt_bigcode, ...
OWN_FIELDS = {"bloom": bloom_fields, "mpt": mpt_fields, "falcon": falcon_fields, "gpt_neo": gpt_neo.gpt_neo_fields,
              "gpt_bigcode": bigcode_fields, "xglm": xglm.xglm_fields, "t5": t5_fields, "mt5": mt5_fields,
              "umt5": umt5_fields, "m2m_100": m2m100.m2m100_fields, "bart": bart.bart_fields, "mbart": bart.bart_fields}
# family -> vocab_size of a config.json without one (GPTNeoConfig's, XGLMConfig's, M2M100Config's, BartConfig's and
# MBartConfig's defaults)
CLASS_VOCAB = {"gpt_neo": gpt_neo.DEFAULT_VOCAB, "xglm": xglm.DEFAULT_VOCAB, "m2m_100": m2m100.DEFAULTS["vocab_size"],
               "bart": bart.DEFAULTS["vocab_size"]}
# family -> the stored row of position 0: OPT's and BART's learned tables and XGLM's sinusoidal one are offset by 2
# (M2M100's: pad_token_id + 1, its fields' first_row)
FIRST_ROW = {"opt": 2, "xglm": xglm.OFFSET, "bart": bart.OFFSET}
