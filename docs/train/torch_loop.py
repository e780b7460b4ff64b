"""A plain PyTorch policy-gradient loop over a Baton snapshot.

Loss per model call: -advantage x log p(response | prompt), the response
tokens only. Token ids come from the snapshot when the run recorded them
(vLLM, Agent Lightning's proxy), else from the tokenizer.

    python torch_loop.py path/to/snapshot gpt2
"""
import json
import sys

import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer

folder, model_name = sys.argv[1], sys.argv[2]
ds = load_dataset("parquet", data_files=f"{folder}/data/train-*.parquet", split="train")
tok = AutoTokenizer.from_pretrained(model_name)
model = AutoModelForCausalLM.from_pretrained(model_name)
opt = torch.optim.AdamW(model.parameters(), lr=1e-6)


def ids(row):
    if row["prompt_token_ids"] is not None and row["response_token_ids"] is not None:
        return row["prompt_token_ids"], row["response_token_ids"]
    prompt = tok.apply_chat_template(json.loads(row["prompt"]), tokenize=True, add_generation_prompt=True) if tok.chat_template else tok("\n".join(m["content"] for m in json.loads(row["prompt"])))["input_ids"]
    response = json.loads(row["response"])
    text = response if isinstance(response, str) else response["content"]
    return prompt, tok(text)["input_ids"]


model.train()
for row in ds.shuffle(seed=0):
    if row["hacking_flags"]:
        continue  # a flagged rollout teaches the hack
    prompt, response = ids(row)
    input_ids = torch.tensor([prompt + response])
    logits = model(input_ids).logits[0, len(prompt) - 1:-1]
    logp = torch.log_softmax(logits, dim=-1).gather(1, torch.tensor(response)[:, None]).sum()
    loss = -row["advantage"] * logp
    opt.zero_grad()
    loss.backward()
    opt.step()
