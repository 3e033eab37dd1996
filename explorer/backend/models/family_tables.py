"""The model families PE Explorer reads, by Hugging Face model_type, and each class's defaults where config.json
is silent (transformers 5.25's configuration_<family>.py). No Qt; read by explorer.backend.models.config."""

from __future__ import annotations

FAMILIES = {"gpt2": "gpt2", "bert": "bert", "opt": "opt", "llama": "llama", "mistral": "mistral",
            "qwen2": "qwen2", "qwen3": "qwen3", "gemma": "gemma", "phi3": "phi3", "gemma2": "gemma2",
            "gemma3_text": "gemma3",
            # RoBERTa, XLM-RoBERTa, CamemBERT (RobertaModel's structure): BERT's embeddings and attention, positions
            # from row pad_token_id + 1 (explorer.backend.models.encoders)
            "roberta": "bert", "xlm-roberta": "bert", "camembert": "bert",
            # DistilBERT: LayerNorm(word + position) (no token types), post-LN layers, q_lin / k_lin; its position
            # table as stored (sinusoidal_pos_embds: a sinusoidal one, saved with the weights)
            "distilbert": "distilbert",
            # mixture-of-experts models: their embeddings and attention are those of the dense family (only
            # the MLP differs, which PE Explorer never reads): Mixtral, Qwen1.5-MoE / Qwen2-MoE, Qwen3-MoE
            "mixtral": "mistral", "qwen2_moe": "qwen2", "qwen3_moe": "qwen3",
            # SmolLM3: Llama's attention, and every no_rope_layer_interval-th layer without RoPE (NoPE)
            "smollm3": "llama",
            # GPT-NeoX (Pythia, GPT-NeoX-20B): LayerNorm, one fused per-head qkv, a quarter of each head turns
            "gpt_neox": "gpt_neox",
            # Phi-1, Phi-1.5, Phi-2: LayerNorm, q/k/v biases, the first partial_rotary_factor of each head
            # turns (Phi-2: 0.4), optional per-head q/k LayerNorms (qk_layernorm)
            "phi": "phi",
            # GPT-J: the first rotary_dim channels of each head turn in neighbouring pairs (2i, 2i + 1),
            # rotate_every_two, at base 10,000 (hard-coded in its model class); LayerNorm, no q/k biases
            "gptj": "gptj",
            # StableLM (StableLM-3B-4E1T, StableLM 2): LayerNorm, a quarter of each head turns (by default), q/k/v
            # biases when use_qkv_bias, optional q/k LayerNorms of each head's own, without biases
            "stablelm": "stablelm",
            # OLMo 2: no norm before attention (the layer reads the residual stream; its norms come after
            # attention and MLP), RMSNorms on the whole q and k projections (q_norm / k_norm), then RoPE
            "olmo2": "olmo2",
            # OLMo 3: OLMo 2's attention, three layers in four sliding (4,096 tokens), one RoPE per layer type
            # (a 4.x rope_scaling applies to the full layers only)
            "olmo3": "olmo2",
            # StarCoder2: Llama's attention with LayerNorms (norm_epsilon), q/k/v biases (use_bias, default true)
            # and a sliding window on every layer when config.json sets one (the published ones: 4,096)
            "starcoder2": "starcoder2",
            # Cohere Command-R (cohere): a LayerNorm without bias (layer_norm_eps), a LayerNorm of each head's own on
            # q and k when use_qk_norm, and RoPE on neighbouring channels (2i, 2i + 1) over the whole head
            "cohere": "cohere",
            # Cohere 2 (Command R7B, Command A): Cohere's attention (no q/k norms), three layers in four sliding
            # over 4,096 tokens with RoPE, the full ones without any (NoPE)
            "cohere2": "cohere",
            # EXAONE 4.0 (EXAONE-4.0-1.2B, -32B): no norm before attention (OLMo 2's post-norms), per-head q/k
            # RMSNorms, then RoPE; with a sliding window three layers in four slide (4,096 tokens) and the full
            # ones have no RoPE (NoPE); without one every layer is full and turns (explorer...exaone4)
            "exaone4": "exaone4",
            # OLMoE: OLMo 2's q/k norms over all heads, but with an RMSNorm before attention, and clip_qkv after
            # the norms; 64 experts in the MLP
            "olmoe": "olmoe",
            # IBM Granite: Llama's attention, X = embeddings x embedding_multiplier, q·k x attention_multiplier;
            # Granite MoE (granite-3.0-1b-a400m, 3b-a800m) and its shared-expert variant: the same attention
            "granite": "granite", "granitemoe": "granite", "granitemoeshared": "granite",
            # OLMo (1): a LayerNorm without weight or bias (eps 1e-5, fixed) before attention, q/k/v clamped
            # to +-clip_qkv when it is set, then Llama's RoPE
            "olmo": "olmo",
            # GPT-OSS: RMSNorm, q/k/v biases, YaRN (x32 from 4,096) by default, layers alternating sliding (128
            # tokens) and full attention, and a learned sink logit per head in each softmax; experts in the MLP
            "gpt_oss": "gpt_oss",
            # DeepSeek-V2 / V3 (and R1, which is V3): multi-head latent attention (MLA). q from x (or through a low-rank
            # q_a / q_b pair), k's per-head part from a shared latent (kv_a, its RMSNorm, kv_b), and RoPE on a decoupled
            # part of qk_rope_head_dim channels, k's shared by every head, in neighbouring pairs (2i, 2i + 1)
            "deepseek_v2": "deepseek", "deepseek_v3": "deepseek",
            # Llama 4 (Scout, Maverick; a multimodal llama4's text_config): Llama's attention with RoPE on neighbouring
            # pairs, every 4th layer NoPE, q/k RMS-normalised after RoPE, chunked attention (explorer...llama4)
            "llama4_text": "llama",
            # Ministral 3 (Ministral-3-3B / 8B / 14B; a mistral3 wrapper's text_config): Mistral's attention, its
            # class's YaRN when config.json names no RoPE, q x 1 + beta ln(1 + floor(m / L0)) after RoPE (ministral3)
            "ministral3": "mistral",
            # ERNIE 4.5 (ERNIE-4.5-0.3B; ERNIE-4.5-21B-A3B, 300B-A47B with experts in the MLP): Llama's attention with
            # RoPE on neighbouring pairs (2j, 2j + 1) over the whole head, q/k/v biases when use_bias (ernie4_5)
            "ernie4_5": "llama", "ernie4_5_moe": "llama",
            # Hunyuan (Hunyuan-0.5B / 1.8B / 4B / 7B; Hunyuan-A13B's MoE, experts in the MLP): Llama's attention,
            # "dynamic" RoPE with an alpha as a fixed base theta x alpha^(hd / (hd - 2)), each head's q / k RMSNorm
            # after RoPE (explorer...hunyuan)
            "hunyuan_v1_dense": "llama", "hunyuan_v1_moe": "llama",
            # Seed-OSS (Seed-OSS-36B): Llama's attention with q/k/v biases (attention_bias, default true; o_proj's
            # own attention_out_bias is never read here), head_dim 128 by default (80 heads of 128 in 5,120)
            "seed_oss": "llama",
            # Qwen2-VL, Qwen2.5-VL (their text_config, or a 4.x file's top-level keys): Qwen2's attention; Qwen3-VL:
            # Qwen3's, Qwen3-VL-MoE's experts in the MLP; M-RoPE is plain RoPE for text tokens (explorer...qwen_vl)
            "qwen2_vl_text": "qwen2", "qwen2_5_vl_text": "qwen2", "qwen3_vl_text": "qwen3",
            "qwen3_vl_moe_text": "qwen3",
            # GLM-4 (GLM-4-9B-0414, GLM-4-32B-0414): RMSNorm, q/k/v biases (attention_bias, default true), the first
            # partial_rotary_factor (0.5) of each head turns in neighbouring pairs (2i, 2i + 1); head_dim 128 by default
            "glm4": "glm4",
            # GLM-4 of 2024 (glm-4-9b-hf, glm-4-9b-chat-hf: model_type glm, GlmForCausalLM): the attention of glm4
            # above, class for class (Glm4's extra norms after attention and MLP are never read here)
            "glm": "glm4",
            # GLM-4.5 / 4.6 (Glm4Moe): the first half of each head turns rotate-half ((i, i + rot/2), as GPT-NeoX),
            # per-head q/k RMSNorms when use_qk_norm, q/k/v biases when attention_bias (default false); experts
            # in the MLP
            "glm4_moe": "glm4_moe",
            # Apertus (swiss-ai Apertus-8B / 70B): Llama's projections (no biases by default), an RMSNorm of each head's
            # own on q and k BEFORE RoPE (q_norm / k_norm, as Qwen3), its layer input norm named attention_layernorm,
            # the class's Llama 3 RoPE (x8 from 8,192 at base 1.2e7) when config.json names none; xIELU MLP unread
            "apertus": "apertus",
            # BLOOM (bloom-560m … bloom): ALiBi, no position vectors; LayerNorm on the embeddings and before
            # attention, one fused query_key_value with biases, q, k, v rows head by head (explorer...bloom)
            "bloom": "bloom",
            # MPT (mpt-7b, mpt-30b): ALiBi of its own slopes (alibi_bias_max), a LayerNorm without bias, one fused Wqkv
            # without bias whose q, k, v are whole blocks (explorer...mpt)
            "mpt": "mpt",
            # Falcon: a LayerNorm, one fused query_key_value in KV groups of q heads, k, v; with alibi true
            # (falcon-rw-1b, -7b) ALiBi made in bfloat16 and divided by sqrt(head_dim), else (falcon-7b, -40b,
            # -180B) Llama's RoPE over the whole head (explorer...falcon)
            "falcon": "falcon",
            # GPT-Neo (gpt-neo-125m, 1.3B, 2.7B): GPT-2's wte + wpe, ln_1, q/k/v projections without bias, q·k NOT
            # divided by sqrt(head_dim), global and local layers (a window of window_size keys) (explorer...gpt_neo)
            "gpt_neo": "gpt_neo",
            # Nemotron (Minitron-4B / 8B-Base, Nemotron-Mini-4B-Instruct, Nemotron-4-340B's ports): LayerNorm1P (a
            # LayerNorm with weight + 1 and a bias, eps norm_eps), q/k/v biases when attention_bias, the first
            # partial_rotary_factor (0.5) of each head turns rotate-half ((i, i + rot/2), as GPT-NeoX)
            "nemotron": "nemotron",
            # GPT-BigCode (StarCoder, SantaCoder, WizardCoder): GPT-2's X (wte + wpe) and ln_1, one fused nn.Linear
            # c_attn with bias, one k head for all q heads with multi_query (its default) (explorer...gpt_bigcode)
            "gpt_bigcode": "gpt2",
            # XGLM (xglm-564M … 7.5B): fairseq's sinusoidal table, computed from config.json (not stored), rows offset
            # by 2; embed_tokens x sqrt(d_model); self_attn_layer_norm, q/k projections with bias (explorer...xglm)
            "xglm": "xglm",
            # T5 (t5-small, t5-base, flan-t5-*; T5EncoderModel): its encoder, X = shared[ids] with nothing added, a
            # T5LayerNorm (RMS, weight only), q·k NOT scaled, plus a learned bias per head and per bucket of n − m
            # (explorer...t5, t5_bias)
            "t5": "t5", "mt5": "t5",     # mT5 (google/mt5-*): T5's classes (modeling_mt5.py), its defaults
            "umt5": "t5",                # UMT5 (google/umt5-*): T5's names, a bias table in every layer (models.t5)
            # M2M100, NLLB-200: its encoder; XGLM's computed sinusoidal table, read from row pad_token_id + 1 as
            # RoBERTa's; embed_tokens x sqrt(d_model); self_attn_layer_norm, q/k with bias (explorer...m2m100)
            "m2m_100": "m2m_100",
            # BART (bart-base, bart-large, bart-large-cnn), mBART (mbart-large-cc25, mbart-large-50-*): its encoder; a
            # learned table read from row 2 (OPT's offset), X = layernorm_embedding(E x embed_scale + P), post-norm
            # layers (mBART's pre-norm: self_attn_layer_norm first), q/k with bias (explorer...bart)
            "bart": "bart", "mbart": "bart"}
# no position vectors; a bias on the scores (models.alibi_family); Falcon's only with alibi true (falcon_position)
ALIBI_FAMILIES = ("bloom", "mpt", "falcon")
# a sinusoidal table computed from config.json (not stored) and E x sqrt(d_model): fairseq's (models.xglm, m2m100)
SINUSOID_FAMILIES = ("xglm", "m2m_100")
RELATIVE_FAMILIES = ("t5",)     # no position vectors; a learned bias per head and bucket of n − m (models.t5_bias)
# X is a LayerNorm of the embedding sum (BertEmbeddings' / DistilBERT's LayerNorm, BartEncoder's layernorm_embedding:
# families.input_x); BLOOM's word_embeddings_layernorm normalises E alone
LAYER_NORM_SUMS = ("bert", "distilbert", "bart")
SUPPORTED = tuple(FAMILIES)
ROPE_FAMILIES = ("llama", "mistral", "qwen2", "qwen3", "gemma", "phi3", "gemma2", "gemma3", "gpt_neox", "phi",
                 "gptj", "stablelm", "olmo2", "granite", "olmo",
                 "gpt_oss", "starcoder2", "cohere", "olmoe", "deepseek", "glm4", "glm4_moe", "apertus", "exaone4",
                 "nemotron")
NO_INPUT_NORM = ("olmo2", "exaone4")   # no norm before attention: the layer reads the residual stream
# the families whose norms are LayerNorms (weight and bias), by config.json's key of their epsilon; the
# others have RMSNorms (rms_norm_eps)
LAYER_NORM_EPS = {"gpt2": "layer_norm_epsilon", "gptj": "layer_norm_epsilon", "bert": "layer_norm_eps",
                  "opt": "layer_norm_eps", "gpt_neox": "layer_norm_eps", "phi": "layer_norm_eps",
                  "stablelm": "layer_norm_eps", "starcoder2": "norm_epsilon", "cohere": "layer_norm_eps",
                  "bloom": "layer_norm_epsilon", "mpt": "layer_norm_epsilon", "falcon": "layer_norm_epsilon",
                  "gpt_neo": "layer_norm_epsilon", "nemotron": "norm_eps",
                  "xglm": "layer_norm_eps",       # (XGLM's, M2M100's nn.LayerNorm: eps 1e-5 whatever config.json
                  "m2m_100": "layer_norm_eps",    # says; BART's, mBART's the same)
                  "bart": "layer_norm_eps"}
GEMMA_FAMILIES = ("gemma", "gemma2", "gemma3")      # embeddings x sqrt(hidden), (1 + w) RMSNorms
NORM_1P = ("nemotron",)      # LayerNorms of weight + 1 (NemotronLayerNorm1P: F.layer_norm(x, ..., weight + 1, bias))
DTYPES = ("float32", "float16", "bfloat16", "float64")
# max_position_embeddings when config.json has none: each class's default in transformers 5.25
# (models/<family>/configuration_<family>.py); dynamic scaling and a YaRN / Llama 3 L0 read it
DEFAULT_MAX_POSITIONS = {"llama": 2048, "mistral": 4096 * 32, "qwen2": 32768, "qwen3": 32768, "gemma": 8192,
                         "phi3": 4096, "gemma2": 8192, "gemma3_text": 131072, "mixtral": 4096 * 32,
                         "qwen2_moe": 32768, "qwen3_moe": 32768, "smollm3": 32768,
                         "gpt_neox": 2048, "phi": 2048, "stablelm": 4096, "olmo2": 2048, "olmo3": 2048,
                         "granite": 2048, "olmo": 2048, "gpt_oss": 131072, "starcoder2": 4096,
                         "cohere": 8192, "cohere2": 8192, "olmoe": 4096,
                         "deepseek_v2": 2048, "deepseek_v3": 4096, "granitemoe": 2048, "granitemoeshared": 2048,
                         "llama4_text": 4096 * 32, "qwen2_vl_text": 32768, "qwen2_5_vl_text": 32768,
                         "qwen3_vl_text": 128000, "qwen3_vl_moe_text": 128000,
                         "glm4": 131072, "glm4_moe": 131072, "ministral3": 262144,
                         "ernie4_5": 131072, "ernie4_5_moe": 131072,
                         "hunyuan_v1_dense": 2048, "hunyuan_v1_moe": 2048, "seed_oss": 524288,
                         "glm": 131072, "apertus": 65536, "exaone4": 2048, "nemotron": 4096}   # by model_type
# head_dim of a config.json without one, by model_type (the others: hidden / heads; Qwen3MoeConfig has no
# head_dim field, its attention takes hidden / heads)
DEFAULT_HEAD_DIM = {"qwen3": 128, "gemma": 256, "gemma2": 256, "gemma3_text": 256, "gpt_oss": 64, "llama4_text": 128,
                    "qwen3_vl_text": 128, "glm4": 128,
                    "ministral3": 128, "ernie4_5": 128, "seed_oss": 128, "glm": 128}   # (Glm4MoeConfig,
#                                                          Ernie4_5_MoeConfig: no head_dim field: hidden / heads)
# num_key_value_heads of a config.json without one, by model_type: the class's default, whatever the head count
# (transformers 5.25's configuration_<family>.py; the others default to None: one kv head per head, as does a
# null one where the class accepts it)
DEFAULT_KV_HEADS = {"mistral": 8, "mixtral": 8, "qwen2": 32, "qwen3": 32, "qwen2_moe": 16, "qwen3_moe": 4,
                    "gemma": 16, "gemma2": 4, "gemma3_text": 4, "smollm3": 4, "stablelm": 32, "gpt_oss": 8,
                    "starcoder2": 2, "deepseek_v3": 128, "llama4_text": 8, "qwen2_vl_text": 8, "qwen2_5_vl_text": 8,
                    "qwen3_vl_text": 32, "qwen3_vl_moe_text": 16, "glm4": 2, "glm4_moe": 8,
                    "ministral3": 8, "ernie4_5": 2, "ernie4_5_moe": 4, "seed_oss": 8, "glm": 2, "exaone4": 32}
# the model types whose class refuses a null num_key_value_heads (a field typed int), or keeps it and cannot run
NO_NULL_KV_HEADS = ("mistral", "mixtral", "qwen2_moe", "qwen3_moe", "gemma", "gemma2", "gemma3_text", "stablelm",
                    "gpt_oss", "starcoder2", "glm4", "glm4_moe", "ministral3", "ernie4_5_moe", "glm", "exaone4",
                    "nemotron")
# the model types whose class leaves a missing num_key_value_heads None, which its attention cannot run
# (NemotronConfig's default, NemotronAttention's num_heads // num_key_value_heads)
NO_DEFAULT_KV_HEADS = ("nemotron",)
# the model types whose attention cannot run a null head_dim (Glm4Config refuses it, a field typed int; GlmAttention
# and ApertusAttention keep it and fail on None)
NO_NULL_HEAD_DIM = ("glm4", "glm", "apertus")
# rope_theta of a config.json without one, by model_type (the class's default_theta; the others 10,000)
DEFAULT_THETA = {"mixtral": 1_000_000.0, "smollm3": 2_000_000.0, "gpt_oss": 150_000.0, "olmo3": 500_000.0,
                 "cohere": 500_000.0, "llama4_text": 500_000.0, "qwen2_vl_text": 1_000_000.0,
                 "qwen2_5_vl_text": 1_000_000.0, "qwen3_vl_text": 500_000.0, "qwen3_vl_moe_text": 500_000.0,
                 "ernie4_5": 500_000.0, "ernie4_5_moe": 500_000.0, "apertus": 12_000_000.0}
# rms_norm_eps of a config.json without one, by model_type (the class's default; the others 1e-6)
DEFAULT_RMS_EPS = {"phi3": 1e-5, "mixtral": 1e-5, "olmo2": 1e-5, "olmo3": 1e-5, "gpt_oss": 1e-5, "olmoe": 1e-5,
                   "llama4_text": 1e-5, "qwen2_vl_text": 1e-5, "qwen2_5_vl_text": 1e-5, "glm4": 1.5625e-7,
                   "glm4_moe": 1e-5, "ministral3": 1e-5, "ernie4_5": 1e-5, "ernie4_5_moe": 1e-5,
                   "hunyuan_v1_dense": 1e-5, "hunyuan_v1_moe": 1e-5, "glm": 1.5625e-7, "apertus": 1e-5, "exaone4": 1e-5}
# rope_parameters of a config.json with neither rope_parameters nor a set rope_scaling, where the class has its
# own (GptOssConfig.__post_init__: YaRN; ApertusConfig.__post_init__: Llama 3 at its own base, whatever rope_theta
# says; the others: default RoPE), by family
DEFAULT_ROPE = {"gpt_oss": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
                            "truncate": False, "original_max_position_embeddings": 4096},
                "apertus": {"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0,
                            "original_max_position_embeddings": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0}}
# attention_bias of a config.json without one, where the class's default is true (the others: false), by family
# or model_type
BIAS_BY_DEFAULT = ("gpt_neox", "gpt_oss", "glm4", "seed_oss")
# the families whose attention splits hidden_size / num_attention_heads channels a head while their RoPE
# would read a head_dim of config.json's (by the name a message gives them)
HEADS_SPLIT = {"gpt_neox": "GPT-NeoX", "stablelm": "StableLM"}
# q/k projections built with bias=False, whatever the config says
NO_QK_BIAS = ("mistral", "mixtral", "phi3", "ministral3", "exaone4")
