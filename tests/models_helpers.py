"""Tiny random checkpoints of every family, written with transformers' own classes, and hooks on them.

Every parameter (norm weights and biases too) is drawn at random, so a missed bias or norm shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "far", "away", "position", "rope", "sin",
         "cos", "token", "table", "row", "head", "query", "key"]
TEXT = "the cat sat on the mat a dog ran far away position rope"
VOCAB = 64                          # table rows; the tokenizer has fewer (padded tables are fine)

SMALL = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 48,
         "max_position_embeddings": 40, "vocab_size": VOCAB}
FAMILIES = {
    "gpt2": {"n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 40, "vocab_size": VOCAB},
    # GPT-BigCode (StarCoder): GPT-2's X, an nn.Linear c_attn with bias; one k head for the 4 q heads (multi_query,
    # its default), or, without, q, k and v head by head
    "gpt_bigcode": {"n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 40, "vocab_size": VOCAB},
    "gpt_bigcode_mha": {"n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 40, "vocab_size": VOCAB,
                        "multi_query": False},
    "bert": dict(SMALL),
    "opt": {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "ffn_dim": 48,
            "max_position_embeddings": 40, "vocab_size": VOCAB, "word_embed_proj_dim": 16},
    "opt_post_ln": {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "ffn_dim": 48,
                    "max_position_embeddings": 40, "vocab_size": VOCAB, "do_layer_norm_before": False},
    "llama": dict(SMALL, num_key_value_heads=2, rope_theta=500.0, attention_bias=True),
    "mistral": dict(SMALL, num_key_value_heads=1, rope_theta=1000.0),
    "qwen2": dict(SMALL, num_key_value_heads=2, rope_theta=10000.0),
    "qwen3": dict(SMALL, num_key_value_heads=2, head_dim=12, rope_theta=1e6),
    "gemma": dict(SMALL, num_key_value_heads=1, head_dim=16, rope_theta=10000.0),
    # Phi-3: fused qkv_proj; a rotary fraction of 0.5 (Phi-4-mini's is 0.75) rotates the first 4 channels
    "phi3": dict(SMALL, num_key_value_heads=2, rope_theta=500.0, partial_rotary_factor=0.5, pad_token_id=0,
                 eos_token_id=1, bos_token_id=1),
    # Gemma 2: q·k / sqrt(query_pre_attn_scalar), soft-capped at 5 (so the cap shows); Gemma 3: q/k norms,
    # layer 0 a sliding layer with its own RoPE base (500, where the full layers' is 1e6)
    "gemma2": dict(SMALL, num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=24,
                   attn_logit_softcapping=5.0, rope_parameters={"rope_type": "default", "rope_theta": 700.0}),
    "gemma3": dict(SMALL, num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=24,
                   rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 500.0},
                                    "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6}}),
    # mixture-of-experts: the dense family's attention, experts in the MLP (4 experts, 2 a token)
    "mixtral": dict(SMALL, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2, rope_theta=700.0),
    "qwen2_moe": dict(SMALL, num_key_value_heads=2, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=24,
                      shared_expert_intermediate_size=24, rope_theta=900.0),
    "qwen3_moe": dict(SMALL, num_key_value_heads=2, head_dim=12, num_experts=4, num_experts_per_tok=2,
                      moe_intermediate_size=24, rope_theta=1e6),
    # SmolLM3: Llama's attention; layers 3, 7, ... without RoPE (no_rope_layer_interval 4)
    "smollm3": dict(SMALL, num_hidden_layers=4, num_key_value_heads=2, rope_theta=5000.0, pad_token_id=0,
                    bos_token_id=1, eos_token_id=1),
    # GPT-NeoX (Pythia): fused per-head query_key_value; 4.x keys rotary_emb_base / rotary_pct, here half of
    # each head of 8 turns (Pythia's quarter would be 2 channels)
    "gpt_neox": dict(SMALL, rotary_emb_base=700, rotary_pct=0.5),
    # Phi (Phi-2's 0.4 of a head turns; 0.5 here, of 8 channels), with per-head q/k LayerNorms (qk_layernorm)
    "phi": dict(SMALL, num_key_value_heads=2, rope_theta=800.0, partial_rotary_factor=0.5, qk_layernorm=True),
    # GPT-J: the first rotary_dim (4 of 8) channels of each head turn in neighbouring pairs (rotate_every_two)
    "gptj": {"n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 40, "vocab_size": VOCAB, "rotary_dim": 4},
    # StableLM (a quarter of each head turns by default; half here, 4 of 8), q/k/v biases, a q/k LayerNorm of
    # each head's own (qk_layernorm: 4 q and 2 kv norms, weights only)
    "stablelm": dict(SMALL, num_key_value_heads=2, rope_parameters={"rope_type": "default", "rope_theta": 600.0,
                                                                     "partial_rotary_factor": 0.5},
                     use_qkv_bias=True, qk_layernorm=True),
    # OLMo 2: no norm before attention, RMSNorms over the whole q (4 x 8) and k (2 x 8) projections
    "olmo2": dict(SMALL, num_key_value_heads=2, rope_theta=650.0),
    # OLMo 3: OLMo 2's attention; layers 0-2 of 4 sliding over 6 tokens at plain RoPE, layer 3 full with YaRN
    "olmo3": dict(SMALL, num_hidden_layers=4, num_key_value_heads=2, sliding_window=6, rope_parameters={
        "sliding_attention": {"rope_type": "default", "rope_theta": 650.0},
        "full_attention": {"rope_type": "yarn", "rope_theta": 650.0, "factor": 4.0,
                           "original_max_position_embeddings": 10}}),
    # StarCoder2: LayerNorms, q/k/v biases, a 6-token window on every layer
    "starcoder2": dict(SMALL, num_key_value_heads=2, rope_theta=900.0, sliding_window=6),
    # Cohere: a LayerNorm without bias, per-head q/k LayerNorms (use_qk_norm), pairs (2i, 2i + 1) turned
    "cohere": dict(SMALL, num_key_value_heads=2, rope_theta=800.0, use_qk_norm=True, layer_norm_eps=0.1),
    # Cohere 2: Cohere's attention without q/k norms; layers 0-2 of 4 sliding over 6 tokens with RoPE, 3 NoPE
    "cohere2": dict(SMALL, num_hidden_layers=4, num_key_value_heads=2, rope_theta=700.0, sliding_window=6,
                    layer_norm_eps=0.1),
    # EXAONE 4.0: no norm before attention, per-head q/k RMSNorms; layers 0-2 of 4 sliding over 6 tokens with RoPE,
    # layer 3 full and NoPE (the class's sliding_window_pattern 4); its Llama 3 scaling: tests/test_models_exaone4.py
    "exaone4": dict(SMALL, num_hidden_layers=4, num_key_value_heads=2, head_dim=12, sliding_window=6, rope_theta=800.0),
    # OLMoE: an RMSNorm before attention, RMSNorms over all of q's / k's heads, then q, k clamped to +-0.9
    "olmoe": dict(SMALL, num_key_value_heads=2, rope_theta=850.0, clip_qkv=0.9, num_experts=4, num_experts_per_tok=2),
    # MLA: heads of 12 nope + 8 rope channels; V3 through a low-rank q (12), V2 as V2-Lite (q_proj from x)
    "deepseek_v3": dict(SMALL, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=12, qk_nope_head_dim=12,
                        qk_rope_head_dim=8, v_head_dim=6, n_routed_experts=4, num_experts_per_tok=2,
                        moe_intermediate_size=16, first_k_dense_replace=1, n_group=1, topk_group=1, rope_theta=900.0),
    "deepseek_v2": dict(SMALL, num_key_value_heads=4, kv_lora_rank=16, q_lora_rank=None, qk_nope_head_dim=12,
                        qk_rope_head_dim=8, v_head_dim=6, n_routed_experts=4, num_experts_per_tok=2,
                        moe_intermediate_size=16, first_k_dense_replace=1, rope_theta=700.0),
    # Granite: X = embeddings x embedding_multiplier, q·k x attention_multiplier (for 1 / sqrt(head_dim))
    "granite": dict(SMALL, num_key_value_heads=2, rope_theta=900.0, embedding_multiplier=3.5,
                    attention_multiplier=0.07),
    # Granite MoE and its shared-expert variant: Granite's attention and multipliers, experts in the MLP
    "granitemoe": dict(SMALL, num_key_value_heads=2, rope_theta=800.0, embedding_multiplier=2.5,
                       attention_multiplier=0.09, num_local_experts=4, num_experts_per_tok=2),
    "granitemoeshared": dict(SMALL, num_key_value_heads=1, rope_theta=600.0, embedding_multiplier=1.5,
                             attention_multiplier=0.11, num_local_experts=4, num_experts_per_tok=2,
                             shared_intermediate_size=24),
    # OLMo (1): a LayerNorm without weight or bias before attention; q, k, v clamped to +-1.5 (some of the
    # random projections reach past it)
    "olmo": dict(SMALL, num_key_value_heads=2, rope_theta=750.0, clip_qkv=1.5),
    # GPT-OSS: its class's YaRN (x32 from 4,096) at its base 150,000, q/k biases, layer 0 a sliding layer of 6
    # tokens (so a 13-token sentence shows it), one sink logit per head; 4 experts, 2 per token
    "gpt_oss": dict(SMALL, num_key_value_heads=2, head_dim=8, sliding_window=6, num_local_experts=4,
                    num_experts_per_tok=2),
    # Llama 4: pairs (2i, 2i + 1) turned, q and k RMS-normalised after RoPE, layer 3 NoPE; layer 0 attends in
    # chunks of 5 tokens (so a 13-token sentence shows three); 2 experts, 1 per token
    "llama4": dict(SMALL, num_hidden_layers=4, num_key_value_heads=2, head_dim=8, rope_theta=700.0,
                   attention_chunk_size=5, num_local_experts=2, num_experts_per_tok=1, intermediate_size_mlp=48,
                   pad_token_id=0, bos_token_id=1, eos_token_id=1),
    # GLM-4: the first half of each head of 8 turns (4 channels) in neighbouring pairs (2i, 2i + 1), q/k/v biases
    "glm4": dict(SMALL, num_key_value_heads=2, head_dim=8, rope_theta=700.0, partial_rotary_factor=0.5,
                 attention_bias=True, pad_token_id=0, bos_token_id=1, eos_token_id=1),
    # GLM-4.5: the first half of each head turns rotate-half, q/k/v biases, per-head q/k RMSNorms (use_qk_norm);
    # 4 experts, 2 a token, from layer 1 (first_k_dense_replace 1: layer 0's MLP is dense)
    "glm4_moe": dict(SMALL, num_key_value_heads=2, head_dim=8, rope_theta=900.0, partial_rotary_factor=0.5,
                     attention_bias=True, use_qk_norm=True, n_routed_experts=4, num_experts_per_tok=2,
                     moe_intermediate_size=24, first_k_dense_replace=1, n_group=1, topk_group=1),
    # ERNIE 4.5: RoPE on neighbouring pairs (2j, 2j + 1) over heads of 12 (not hidden / heads), q/k/v biases
    # (use_bias); the MoE model: heads of hidden / heads (its class has no head_dim field), 4 experts, 2 a token
    # and 1 shared, from layer 1 (moe_layer_start_index 1: layer 0's MLP is dense)
    "ernie4_5": dict(SMALL, num_key_value_heads=2, head_dim=12, rope_theta=700.0, use_bias=True),
    "ernie4_5_moe": dict(SMALL, num_key_value_heads=2, rope_theta=900.0, use_bias=True, moe_num_experts=4, moe_k=2,
                         moe_num_shared_experts=1, moe_intermediate_size=24),
    # Seed-OSS: Llama's attention, q/k/v biases by its class's default (attention_bias true, left out here), a
    # head_dim (12) that is not hidden / heads (8), as Seed-OSS-36B's 128 is not 5,120 / 80
    "seed_oss": dict(SMALL, num_key_value_heads=2, head_dim=12, rope_theta=900.0, pad_token_id=0, bos_token_id=1,
                     eos_token_id=1),
    # GLM-4 of 2024 (glm): GLM-4's attention, half of each head of 8 turning in neighbouring pairs by the class's
    # default partial_rotary_factor (left out), q/k/v biases by its default attention_bias (true)
    "glm": dict(SMALL, num_key_value_heads=2, head_dim=8, rope_theta=600.0, pad_token_id=0, bos_token_id=1,
                eos_token_id=1),
    # Apertus: per-head q/k RMSNorms before RoPE, Llama 3 RoPE (x4 from 8 positions, so 13 tokens show it), the
    # input norm named attention_layernorm; the xIELU MLP is never read
    "apertus": dict(SMALL, num_key_value_heads=2, head_dim=12, pad_token_id=0, bos_token_id=1, eos_token_id=1,
                    rope_parameters={"rope_type": "llama3", "rope_theta": 700.0, "factor": 4.0,
                                     "original_max_position_embeddings": 8, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0}),
    # GPT-Neo: GPT-2's wte + wpe, q/k/v without bias, q·k not divided by sqrt(head_dim); layer 0 global, layer 1
    # local over 5 keys (a 13-token sentence shows it); the published 125M: tests/test_models_gpt_neo.py
    "gpt_neo": {"hidden_size": 32, "num_layers": 2, "num_heads": 4, "max_position_embeddings": 40,
                "vocab_size": VOCAB, "attention_types": [[["global", "local"], 1]], "window_size": 5,
                "bos_token_id": 1, "eos_token_id": 1},
    # Nemotron: LayerNorm1P (weight + 1, a bias; eps norm_eps), half of each head of 8 turning rotate-half by its
    # class's default partial_rotary_factor (left out), q/k/v biases (attention_bias; false by default)
    "nemotron": dict(SMALL, num_key_value_heads=2, rope_theta=700.0, norm_eps=1e-3, attention_bias=True),
    # XGLM: embed_tokens x sqrt(32) + fairseq's sinusoidal table (computed, not saved), rows offset by 2;
    # self_attn_layer_norm, q/k with biases; the published 564M: tests/test_models_xglm.py
    "xglm": {"d_model": 32, "num_layers": 2, "attention_heads": 4, "ffn_dim": 48, "max_position_embeddings": 40,
             "vocab_size": VOCAB},
    # M2M100 / NLLB-200: its encoder (XGLM's sinusoidal table read from row pad_token_id + 1 = 2, a pad token row 1;
    # encoder.layers.*, nothing masked); the decoder is never read; tests/test_models_m2m100.py
    "m2m_100": {"d_model": 32, "encoder_layers": 2, "decoder_layers": 1, "encoder_attention_heads": 4,
                "decoder_attention_heads": 4, "encoder_ffn_dim": 48, "decoder_ffn_dim": 48,
                "max_position_embeddings": 40, "vocab_size": VOCAB},
    # BART / mBART: its encoder (X = layernorm_embedding(E + P[p + 2]); mBART's layer 0 through self_attn_layer_norm,
    # scale_embedding true here as mbart-large-cc25's; nothing masked); tests/test_models_bart.py
    "bart": {"d_model": 32, "encoder_layers": 2, "decoder_layers": 1, "encoder_attention_heads": 4,
             "decoder_attention_heads": 4, "encoder_ffn_dim": 48, "decoder_ffn_dim": 48, "max_position_embeddings": 40,
             "vocab_size": VOCAB},
    "mbart": {"d_model": 32, "encoder_layers": 2, "decoder_layers": 1, "encoder_attention_heads": 4,
              "decoder_attention_heads": 4, "encoder_ffn_dim": 48, "decoder_ffn_dim": 48,
              "max_position_embeddings": 40, "vocab_size": VOCAB, "scale_embedding": True},
}


def classes(family: str):
    import transformers as tf

    name = {"gpt2": ("GPT2Config", "GPT2LMHeadModel"),
            "gpt_bigcode": ("GPTBigCodeConfig", "GPTBigCodeForCausalLM"),
            "gpt_bigcode_mha": ("GPTBigCodeConfig", "GPTBigCodeForCausalLM"), "bert": ("BertConfig", "BertModel"),
            "opt": ("OPTConfig", "OPTForCausalLM"), "opt_post_ln": ("OPTConfig", "OPTForCausalLM"),
            "llama": ("LlamaConfig", "LlamaForCausalLM"), "mistral": ("MistralConfig", "MistralForCausalLM"),
            "qwen2": ("Qwen2Config", "Qwen2ForCausalLM"), "qwen3": ("Qwen3Config", "Qwen3ForCausalLM"),
            "gemma": ("GemmaConfig", "GemmaForCausalLM"), "phi3": ("Phi3Config", "Phi3ForCausalLM"),
            "gemma2": ("Gemma2Config", "Gemma2ForCausalLM"),
            "gemma3": ("Gemma3TextConfig", "Gemma3ForCausalLM"), "mixtral": ("MixtralConfig", "MixtralForCausalLM"),
            "qwen2_moe": ("Qwen2MoeConfig", "Qwen2MoeForCausalLM"),
            "qwen3_moe": ("Qwen3MoeConfig", "Qwen3MoeForCausalLM"),
            "smollm3": ("SmolLM3Config", "SmolLM3ForCausalLM"),
            "gpt_neox": ("GPTNeoXConfig", "GPTNeoXForCausalLM"), "phi": ("PhiConfig", "PhiForCausalLM"),
            "gptj": ("GPTJConfig", "GPTJForCausalLM"), "stablelm": ("StableLmConfig", "StableLmForCausalLM"),
            "olmo2": ("Olmo2Config", "Olmo2ForCausalLM"), "olmo3": ("Olmo3Config", "Olmo3ForCausalLM"),
            "starcoder2": ("Starcoder2Config", "Starcoder2ForCausalLM"), "cohere": ("CohereConfig", "CohereForCausalLM"),
            "cohere2": ("Cohere2Config", "Cohere2ForCausalLM"), "olmoe": ("OlmoeConfig", "OlmoeForCausalLM"), "granite": ("GraniteConfig", "GraniteForCausalLM"),
            "granitemoe": ("GraniteMoeConfig", "GraniteMoeForCausalLM"),
            "granitemoeshared": ("GraniteMoeSharedConfig", "GraniteMoeSharedForCausalLM"),
            "olmo": ("OlmoConfig", "OlmoForCausalLM"), "gpt_oss": ("GptOssConfig", "GptOssForCausalLM"),
            "deepseek_v2": ("DeepseekV2Config", "DeepseekV2ForCausalLM"),
            "deepseek_v3": ("DeepseekV3Config", "DeepseekV3ForCausalLM"),
            "llama4": ("Llama4TextConfig", "Llama4ForCausalLM"), "glm4": ("Glm4Config", "Glm4ForCausalLM"),
            "glm4_moe": ("Glm4MoeConfig", "Glm4MoeForCausalLM"),
            "ministral3": ("Ministral3Config", "Ministral3ForCausalLM"),
            "ernie4_5": ("Ernie4_5Config", "Ernie4_5ForCausalLM"),
            "ernie4_5_moe": ("Ernie4_5_MoeConfig", "Ernie4_5_MoeForCausalLM"),
            "hunyuan_v1_dense": ("HunYuanDenseV1Config", "HunYuanDenseV1ForCausalLM"),
            "hunyuan_v1_moe": ("HunYuanMoEV1Config", "HunYuanMoEV1ForCausalLM"),
            "seed_oss": ("SeedOssConfig", "SeedOssForCausalLM"), "glm": ("GlmConfig", "GlmForCausalLM"),
            "apertus": ("ApertusConfig", "ApertusForCausalLM"),
            "exaone4": ("Exaone4Config", "Exaone4ForCausalLM"),
            "gpt_neo": ("GPTNeoConfig", "GPTNeoForCausalLM"),
            "nemotron": ("NemotronConfig", "NemotronForCausalLM"), "xglm": ("XGLMConfig", "XGLMForCausalLM"),
            "m2m_100": ("M2M100Config", "M2M100ForConditionalGeneration"),
            "bart": ("BartConfig", "BartForConditionalGeneration"),
            "mbart": ("MBartConfig", "MBartForConditionalGeneration")}[family]
    return getattr(tf, name[0]), getattr(tf, name[1])


def write_tokenizer(path: Path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(WORDS)}}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(str(path))


def build(family: str, folder: Path, seed: int = 0, model_class=None):
    """Write a random tiny `family` checkpoint (safetensors) + tokenizer.json into folder; the torch model."""
    import torch

    config_class, default_class = classes(family)
    torch.manual_seed(seed)
    config = config_class(**FAMILIES[family])
    config._attn_implementation = "eager"
    return save_random((model_class or default_class)(config).eval(), folder)


def save_random(model, folder: Path, tokenizer=write_tokenizer):
    """Every parameter of the torch model drawn from N(0, 0.5²), saved with save_pretrained into folder
    with a tokenizer.json beside it (tokenizer(path) writes it: the test one by default); the model."""
    import torch

    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.5)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer(folder / "tokenizer.json")
    return model


def rewrite_tensor(folder: Path, suffix: str, change) -> str:
    """Replace the tensor of folder's model.safetensors whose name ends with suffix by change(array), or
    remove it where change returns None (a damaged checkpoint); its name."""
    from safetensors.numpy import load_file, save_file

    tensors = load_file(folder / "model.safetensors")
    name = next(k for k in tensors if k.endswith(suffix))
    new = change(tensors[name])
    if new is None:                                                  # the tensor removed
        del tensors[name]
    else:
        tensors[name] = np.array(new, order="C")                     # (a 0-d result stays 0-d)
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    return name


def read_defaults(config_class, family: str, rewrite=None):
    """config_class()'s defaults written as a config.json (a JSON round trip; rewrite(dict) gives another
    layout) and read by model_config: (the class's config, the ModelConfig), with the family, RoPE, width,
    heads, kv heads and head_dim (hidden / heads) checked equal to the class's."""
    from explorer.backend.models.config import model_config

    hf = config_class()
    written = json.loads(json.dumps(hf.to_dict()))
    cfg = model_config(rewrite(written) if rewrite else written)
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        family, "rope", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads,
        hf.hidden_size // hf.num_attention_heads)
    return hf, cfg


def assert_reloaded_as_transformers(model_class, config, folder: Path, family: str, rewrite, rotated: int) -> None:
    """model_class(config) saved at random into folder, its config.json rewritten by rewrite(folder) (a 4.x
    layout) and loaded back by transformers: X, q and k after RoPE and the causal softmax of PE Explorer's
    model of the folder equal it for 52 tokens (past SMALL's 40 positions, where dynamic scaling starts),
    and only the first `rotated` channels of each head turn (MLA: of its rope part)."""
    from explorer.backend.models.hf_folder import open_model

    config._attn_implementation = "eager"
    save_random(model_class(config).eval(), folder)
    rewrite(folder)
    reference = model_class.from_pretrained(folder, attn_implementation="eager").eval()
    with open_model(folder) as model:
        assert model.config.rope_dim == rotated
        ids = model.tokenize(" ".join([TEXT] * 4)).ids
        assert_layer0_as_transformers(model, reference, family, ids)
        qk = model.layer0_qk(ids)
        start = model.config.rope_offset                  # (MLA: its rope part comes after the nope part)
        turned = np.zeros(qk.q.shape[-1], bool)
        turned[start:start + rotated] = True
        assert np.array_equal(qk.q_rot[..., ~turned], qk.q[..., ~turned])
        assert not np.allclose(qk.q_rot[..., turned], qk.q[..., turned])


def assert_damaged_refused(family: str, folder: Path, suffix: str, change, match: str) -> None:
    """A tiny `family` checkpoint whose tensor ending with suffix is change(tensor) (rewrite_tensor):
    layer0_qk refuses it with one line matching `match`."""
    import pytest

    from explorer.backend.models.hf_folder import open_model
    from explorer.errors import InputError

    build(family, folder)
    rewrite_tensor(folder, suffix, change)
    with open_model(folder) as model:
        with pytest.raises(InputError, match=match) as info:
            model.layer0_qk(model.tokenize(TEXT).ids)
        assert "\n" not in str(info.value)


def first_layer(model, family: str):
    base = getattr(model, "base_model", model)
    if family in ("gpt2", "gptj", "gpt_neo") or family.startswith("gpt_bigcode"):
        return base.h[0]
    if family == "bert":
        return base.encoder.layer[0]
    if family in ("m2m_100", "bart", "mbart"):      # (its encoder's: the app shows the encoder)
        return base.encoder.layers[0]
    if family.startswith("opt"):
        return base.decoder.layers[0]
    if family == "llama4":                  # (its base_model_prefix names the multimodal model's language_model)
        return model.model.layers[0]
    if family.endswith(("_vl", "_vl_moe")):   # Qwen VL: the text model sits at model.model.language_model
        return model.model.language_model.layers[0]
    inner = getattr(getattr(model, "model", None), "language_model", None)
    if inner is not None and hasattr(inner, "layers"):     # a multimodal wrapper's text model (Mistral 3)
        return inner.layers[0]
    return base.layers[0]


def capture(model, family: str, ids) -> dict[str, np.ndarray]:
    """Run the torch model on ids; X into layer 0, its q/k projections (per head), RoPE'd q/k if any."""
    import importlib

    got: dict[str, np.ndarray] = {}
    layer = first_layer(model, family)

    def keep_input(module, args, kwargs):
        got.setdefault("x", (args[0] if args else kwargs["hidden_states"])[0].numpy().copy())

    hooks = [layer.register_forward_pre_hook(keep_input, with_kwargs=True)]
    keep = _keeper(got)
    if family == "gpt2":
        hooks.append(layer.attn.c_attn.register_forward_hook(keep("qkv")))
    elif family.startswith("gpt_bigcode"):  # q (H, n, hd) and k (KV, n, hd) as its attention receives them
        _run_spying_on_attention(model, ids, hooks, got, "transformers.models.gpt_bigcode.modeling_gpt_bigcode")
        got["q"], got["k"] = got.pop("q_rot"), got.pop("k_rot")              # (learned positions: nothing turns)
        return got
    elif family == "bert":
        hooks += [layer.attention.self.query.register_forward_hook(keep("q")),
                  layer.attention.self.key.register_forward_hook(keep("k"))]
    elif family in ("gptj", "gpt_neo"):    # (GPT-Neo's projections sit one level down: attn.attention)
        att = layer.attn.attention if family == "gpt_neo" else layer.attn
        hooks += [att.q_proj.register_forward_hook(keep("q")), att.k_proj.register_forward_hook(keep("k"))]
    elif family == "gpt_neox":             # one fused projection: per head its q, k and v rows
        heads = model.config.num_attention_heads

        def split_heads(module, args, out):
            qkv = out[0].detach().numpy()
            per_head = qkv.reshape(len(qkv), heads, 3, -1)                     # (n, H, 3, hd)
            got.setdefault("q", per_head[:, :, 0].reshape(len(qkv), -1).copy())
            got.setdefault("k", per_head[:, :, 1].reshape(len(qkv), -1).copy())

        hooks.append(layer.attention.query_key_value.register_forward_hook(split_heads))
    elif family == "phi3":                 # one fused projection: rows q (H x hd), k (KV x hd), v
        att = layer.self_attn
        q_rows = model.config.num_attention_heads * att.head_dim
        k_rows = model.config.num_key_value_heads * att.head_dim

        def split(module, args, out):
            qkv = out[0].detach().numpy()
            got.setdefault("q", qkv[:, :q_rows].copy())
            got.setdefault("k", qkv[:, q_rows:q_rows + k_rows].copy())

        hooks.append(att.qkv_proj.register_forward_hook(split))
    elif family.startswith("deepseek"):    # MLA: q's projection; k = [kv_b's nope rows | kv_a's shared rope part]
        return _capture_mla(model, family, ids, got, hooks)
    elif family == "llama4":               # q and k as its attention receives them (after RoPE and its norm)
        return _capture_llama4(model, ids, got, hooks)
    elif family == "ministral3":           # q and k as its attention receives them (after RoPE and q's scale)
        att = layer.self_attn
        hooks += [att.q_proj.register_forward_hook(keep("q")), att.k_proj.register_forward_hook(keep("k"))]
        _run_spying_on_attention(model, ids, hooks, got, "transformers.models.ministral3.modeling_ministral3")
        return got
    elif family.startswith("hunyuan_v1"):  # q and k as its attention receives them (after RoPE and the norms)
        att = layer.self_attn
        hooks += [att.q_proj.register_forward_hook(keep("q")), att.k_proj.register_forward_hook(keep("k"))]
        _run_spying_on_attention(model, ids, hooks, got, f"transformers.models.{family}.modeling_{family}")
        return got
    else:
        att = layer.self_attn
        q_mod, k_mod = ((att.q_norm, att.k_norm) if family in ("qwen3", "qwen3_moe", "gemma3", "olmo2", "olmo3", "cohere", "olmoe",
                                                        "qwen3_vl", "qwen3_vl_moe", "glm4_moe", "apertus", "exaone4")
                        and hasattr(att, "q_norm")
                        else (att.q_layernorm, att.k_layernorm) if getattr(att, "qk_layernorm", False)
                        else (att.q_proj, att.k_proj))   # (Phi's and StableLM's qk_layernorm: LayerNorms)
        hooks += [q_mod.register_forward_hook(keep("q")), k_mod.register_forward_hook(keep("k"))]
    restore = None
    if family == "gptj":            # apply_rotary_pos_emb(tensor, sin, cos): k's turned part, then q's
        module = importlib.import_module("transformers.models.gptj.modeling_gptj")
        original, turned = module.apply_rotary_pos_emb, []

        def spy_one(tensor, sin, cos):
            out = original(tensor, sin, cos)
            turned.append(out[0].detach().numpy().transpose(1, 0, 2).copy())      # (H, n, rot)
            return out

        module.apply_rotary_pos_emb, restore = spy_one, (module, original)
        got["turned"] = turned
    elif family not in ("gpt_neo", "xglm", "m2m_100", "bart", "mbart") and not family.startswith(
            ("gpt2", "bert", "opt")):                                                               # (no RoPE)
        module = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
        original = module.apply_rotary_pos_emb

        def spy(q, k, cos, sin, *rest, **kw):
            q2, k2 = original(q, k, cos, sin, *rest, **kw)
            got.setdefault("q_rot", q2[0].detach().numpy().copy())             # (H, n, hd)
            got.setdefault("k_rot", k2[0].detach().numpy().copy())             # (KV, n, hd)
            return q2, k2

        module.apply_rotary_pos_emb, restore = spy, (module, original)
    _run_hooked(model, ids, hooks, restore and (restore[0], "apply_rotary_pos_emb", restore[1]))
    if family in ("olmo", "olmoe") and model.config.clip_qkv is not None:   # (clamped in place after the hook)
        for key in ("q", "k"):
            got[key] = np.clip(got[key], -model.config.clip_qkv, model.config.clip_qkv)
    if family == "smollm3" and not model.config.no_rope_layers[0]:   # a NoPE layer 0 turns nothing (the spy
        hd = model.config.hidden_size // model.config.num_attention_heads   # caught a later layer's rotation)
        for key in ("q", "k"):
            got[key + "_rot"] = got[key].reshape(len(got[key]), -1, hd).transpose(1, 0, 2)
    if family == "gptj":
        turned = got.pop("turned")
        got["k_rot"], got["q_rot"] = turned[0], turned[1]
    if family in ("phi", "gptj", "stablelm"):  # only their first channels go through apply_rotary_pos_emb
        rot, hd = got["q_rot"].shape[-1], model.config.hidden_size // model.config.num_attention_heads
        for key in ("q", "k"):                  # (q_proj's (n, H hd) without qk_layernorm, else (H, n, hd))
            whole = got[key] if got[key].ndim == 3 else got[key].reshape(len(got[key]), -1, hd).transpose(1, 0, 2)
            got[key + "_rot"] = np.concatenate([got[key + "_rot"], whole[..., rot:]], axis=-1)
    return got


def _run_hooked(model, ids, hooks: list, patched) -> None:
    """Run the torch model on ids, then remove its hooks and put back the patched function (module, name,
    original) when there is one."""
    import torch

    run = model.get_encoder() if model.config.is_encoder_decoder else model    # (M2M100: its encoder alone)
    try:
        with torch.no_grad():
            run(input_ids=torch.as_tensor(np.asarray(ids)[None, :], dtype=torch.long))
    finally:
        for h in hooks:
            h.remove()
        if patched:
            setattr(*patched)


def _keeper(got: dict):
    """keep(key): a forward hook that keeps its module's first output (batch row 0) as got[key], once."""
    def keep(key):
        def hook(module, args, out):              # (returns None: the output is left as it is)
            got.setdefault(key, out[0].detach().numpy().copy())
        return hook
    return keep


def _run_spying_on_attention(model, ids, hooks: list, got: dict, module_name: str) -> None:
    """_run_hooked with the module's eager_attention_forward spied on: the q and k that layer 0's attention
    receives, (heads, n, hd), kept as got["q_rot"], got["k_rot"]."""
    import importlib

    module = importlib.import_module(module_name)
    original = module.eager_attention_forward

    def spy(att_module, q, k, *rest, **kw):
        if att_module.layer_idx == 0:
            got.setdefault("q_rot", q[0].detach().numpy().copy())
            got.setdefault("k_rot", k[0].detach().numpy().copy())
        return original(att_module, q, k, *rest, **kw)

    module.eager_attention_forward = spy
    _run_hooked(model, ids, hooks, (module, "eager_attention_forward", original))


def _capture_mla(model, family: str, ids, got: dict, hooks: list) -> dict[str, np.ndarray]:
    """capture() of a DeepSeek model: q (n, H hd) from q_proj / q_b_proj, k (n, H hd) built from kv_a_proj_with_mqa
    and kv_b_proj's outputs, and the rotated q and k that its eager attention receives (H, n, hd); V3's
    interleaved RoPE hands them over with the rope part's even channels first, put back in pairs here."""
    cfg, att = model.config, first_layer(model, family).self_attn
    nope, rope, heads = cfg.qk_nope_head_dim, cfg.qk_rope_head_dim, cfg.num_attention_heads

    keep = _keeper(got)
    hooks += [(att.q_proj or att.q_b_proj).register_forward_hook(keep("q")),
              att.kv_a_proj_with_mqa.register_forward_hook(keep("kv_a")),
              att.kv_b_proj.register_forward_hook(keep("kv_b"))]
    _run_spying_on_attention(model, ids, hooks, got, f"transformers.models.{family}.modeling_{family}")
    n = len(got["q"])
    k = np.concatenate([got.pop("kv_b").reshape(n, heads, -1)[:, :, :nope],
                        np.broadcast_to(got.pop("kv_a")[:, None, -rope:], (n, heads, rope))], axis=-1)
    got["k"] = k.reshape(n, -1)                                                       # (n, H hd)
    if family == "deepseek_v3" and cfg.rope_interleave:
        for key in ("q_rot", "k_rot"):
            part = got[key][..., nope:].copy()
            got[key][..., nope::2], got[key][..., nope + 1::2] = part[..., :rope // 2], part[..., rope // 2:]
    return got


def _capture_llama4(model, ids, got: dict, hooks: list) -> dict[str, np.ndarray]:
    """capture() of a Llama 4: q and k (n, H hd) from q_proj / k_proj, put through the layer's own qk_norm where
    it has one (the weightless RMSNorm it applies after RoPE, which a rotation commutes with), and the q and k
    its eager attention receives (after RoPE, the norm, and a NoPE layer's temperature), (H, n, hd)."""
    import torch

    att = first_layer(model, "llama4").self_attn
    hd = att.head_dim
    keep = _keeper(got)
    hooks += [att.q_proj.register_forward_hook(keep("q")), att.k_proj.register_forward_hook(keep("k"))]
    _run_spying_on_attention(model, ids, hooks, got, "transformers.models.llama4.modeling_llama4")
    if hasattr(att, "qk_norm"):
        with torch.no_grad():
            for key in ("q", "k"):
                per_head = torch.from_numpy(got[key].reshape(len(got[key]), -1, hd))
                got[key] = att.qk_norm(per_head).reshape(len(got[key]), -1).numpy().copy()
    return got


def to_4x_config(folder: Path) -> dict:
    """Rewrite folder's config.json as transformers 4.x wrote it (rope_theta, rope_scaling, torch_dtype)."""
    path = folder / "config.json"
    cfg = json.loads(path.read_text())
    params = cfg.pop("rope_parameters", None)
    if params:
        params = dict(params)
        cfg["rope_theta"] = params.pop("rope_theta")
        if "partial_rotary_factor" in params:         # (Phi-2 and Phi-3 wrote it at the top level)
            cfg["partial_rotary_factor"] = params.pop("partial_rotary_factor")
        kind = params.pop("rope_type", "default")
        cfg["rope_scaling"] = None if kind == "default" else {"type": kind, **params}
    if "dtype" in cfg:
        cfg["torch_dtype"] = cfg.pop("dtype")
    path.write_text(json.dumps(cfg))
    return cfg


def assert_layer0_as_transformers(model, torch_model, family: str, ids, tol: float = 1e-5) -> None:
    """X, layer 0's rotated q and k, and the softmax of its causal logits equal the torch model's own
    (hooks and output_attentions), each to tol of the reference's largest magnitude."""
    import torch

    def close(ours, ref):
        ref = np.asarray(ref, dtype=np.float64)
        np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))

    ref = capture(torch_model, family, ids)
    close(model.input_x(ids), ref["x"])
    qk = model.layer0_qk(ids)
    close(qk.q_rot, ref["q_rot"])
    close(qk.k_rot, ref["k_rot"][qk.kv_head])
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    close(attention_of(qk), out.attentions[0][0].numpy())


def attention_of(qk) -> np.ndarray:
    """The softmax of qk's logits over the keys its layer reads (n <= m, within its sliding window or chunk),
    with GPT-OSS's sink logit as one more slot of no key; (H, n, n) float64."""
    n = qk.logits.shape[-1]
    m, k = np.indices((n, n))
    seen = (k <= m) & ((m - k < qk.window) if qk.window is not None else True)           # (n, n)
    if qk.chunk is not None:                                                             # Llama 4's chunks
        seen &= k // qk.chunk == m // qk.chunk
    logits = np.where(seen, qk.logits.astype(np.float64), -np.inf)                      # (H, n, n)
    sinks = (np.zeros((len(logits), n, 0)) if qk.sinks is None else
             np.broadcast_to(np.asarray(qk.sinks, np.float64)[:, None, None], (len(logits), n, 1)))
    top = np.maximum(logits.max(axis=-1, keepdims=True), sinks.max(axis=-1, keepdims=True, initial=-np.inf))
    probs, slot = np.exp(logits - top), np.exp(sinks - top)
    return probs / (probs.sum(axis=-1, keepdims=True) + slot.sum(axis=-1, keepdims=True))
