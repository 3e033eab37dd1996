"""num_key_value_heads as each transformers class reads it: its default when config.json has none (Mistral 8,
Qwen2 32, Gemma 2 4, ...; Llama's None: one per head), and a null one per head where the class accepts it."""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import model_config
from explorer.errors import InputError

pytest.importorskip("transformers")


KV_FAMILIES = ("llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "gemma", "gemma2",
               "gemma3_text", "phi3", "smollm3", "phi", "stablelm", "olmo", "olmo2", "olmo3", "granite", "gpt_oss",
               "starcoder2", "cohere", "cohere2", "olmoe", "hunyuan_v1_dense", "hunyuan_v1_moe", "exaone4",
               "nemotron")


@pytest.mark.parametrize("model_type", KV_FAMILIES)
@pytest.mark.parametrize("kv", ["absent", None])
def test_kv_heads_of_a_config_without_them_are_the_classes(tmp_path, model_type, kv):
    """num_key_value_heads absent: the config class's default (Mistral 8, Qwen2 32, Gemma 2 4, ...; Llama's
    None: one per head); null: one per head where transformers accepts a null at all, else refused."""
    import transformers as tf

    cfg = {"model_type": model_type, "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 32,
           "vocab_size": 64, **({} if kv == "absent" else {"num_key_value_heads": None})}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    from huggingface_hub.errors import StrictDataclassFieldValidationError

    try:
        hf = tf.AutoConfig.from_pretrained(tmp_path)
        usable = hf.num_key_value_heads is not None       # (Qwen2-MoE keeps a null: its attention cannot run)
    except StrictDataclassFieldValidationError:          # a class whose field must be a number: null refused
        usable = False
    if usable:
        assert model_config(cfg).n_kv_heads == hf.num_key_value_heads
    elif kv is None:                                     # refused here too, in one line
        with pytest.raises(InputError, match=r"^config\.json: num_key_value_heads must be a positive integer, "
                                             r"not null$"):
            model_config(cfg)
    else:                                                # Nemotron's class default is None: refused as well
        assert model_type == "nemotron"
        with pytest.raises(InputError, match=r"^config\.json: num_key_value_heads is missing; transformers' "
                                             r"nemotron has no default for it and cannot run without one$"):
            model_config(cfg)
