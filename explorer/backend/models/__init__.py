"""Real models: open a Hugging Face folder or a GGUF file; tokens, rows, X and layer-0 q/k (Qt-free).

Entry point: `explorer.backend.models.hf_folder.open_model(spec) -> Model`.
"""
