"""A plain PyTorch policy-gradient loop over a Baton snapshot (form `transitions`).

Loss per model call: -advantage x log p(response | prompt), the response
tokens only. Token ids come from the snapshot when the run recorded them
(vLLM, Agent Lightning's proxy), else from the tokenizer.

`prompt` and `response` are Parquet JSON columns: depending on the versions
of `datasets` and pyarrow they arrive as JSON text or already decoded (lists
and dicts); `decoded` takes either and never parses a decoded value again.

    python torch_loop.py path/to/snapshot gpt2
"""
import json
import sys

import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer


def decoded(value):
    """A JSON column's value as Python: parsed when it is still JSON text, as is when already decoded."""
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8")
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value  # a plain-text response already decoded
    return value


def text_of(content):
    """A message's text: itself, or its text parts joined."""
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")


def chat_messages(prompt):
    """Messages a chat template accepts: `developer` as `system`, content as text, Baton's tool calls in the chat API's shape."""
    out = []
    for m in prompt:
        message = {"role": "system" if m["role"] == "developer" else m["role"], "content": text_of(m.get("content"))}
        if m.get("tool_calls"):
            message["tool_calls"] = [{"id": c.get("id"), "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in m["tool_calls"]]
        if m.get("tool_call_id"):
            message["tool_call_id"] = m["tool_call_id"]
        out.append(message)
    return out


def ids(row, tok):
    if row["prompt_token_ids"] is not None and row["response_token_ids"] is not None:
        return list(row["prompt_token_ids"]), list(row["response_token_ids"])
    messages = chat_messages(decoded(row["prompt"]))
    if tok.chat_template:
        prompt = tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True, return_dict=False)
    else:
        prompt = tok("\n".join(m["content"] for m in messages))["input_ids"]
    response = decoded(row["response"])
    text = response if isinstance(response, str) else text_of(response.get("content"))
    return list(prompt), tok(text, add_special_tokens=False)["input_ids"]


def main(folder, model_name):
    ds = load_dataset("parquet", data_files=f"{folder}/data/train-*.parquet", split="train")
    tok = AutoTokenizer.from_pretrained(model_name)
    model = AutoModelForCausalLM.from_pretrained(model_name)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-6)
    model.train()
    for row in ds.shuffle(seed=0):
        if row["hacking_flags"]:
            continue  # a flagged rollout teaches the hack
        prompt, response = ids(row, tok)
        if not response:
            continue  # no recorded ids and no text (a reply that only calls tools): render it with your chat template to train on it
        input_ids = torch.tensor([prompt + response])
        logits = model(input_ids).logits[0, len(prompt) - 1:-1]
        logp = torch.log_softmax(logits, dim=-1).gather(1, torch.tensor(response)[:, None]).sum()
        loss = -row["advantage"] * logp
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
