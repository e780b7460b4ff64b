"""Agent Lightning 1.x: train on Baton's per-call credit instead of one reward per rollout.

A snapshot in the `agent_lightning` form has one row per trace in the shape
of Agent Lightning's CompletedRollout (agentlightning/verl/agl_rollout_manager.py):
`rollout_id`, `data_id`, `final_reward` (R_total) and `triplets`, each
`{prompt: {token_ids}, response: {token_ids, log_probs}, reward, metadata}`
for a model call that has response token ids (as Agent Lightning's own
manager keeps only those). A triplet's `reward` is Baton's advantage of the
call (its credit when the snapshot's method is ccp).

Agent Lightning's RolloutAdapter.get_train_data_batch
(agentlightning/verl/rollout_adapter.py) gives every row of a rollout its
`final_reward`. `per_call_scores` puts each triplet's own reward there
instead, at the same token (the row's last), for trace_aggregator_level
"transition" (one training row per triplet, in the order built here).

    python agent_lightning_adapter.py path/to/snapshot
"""
import glob
import sys

import pandas as pd

try:  # Agent Lightning 1.x with its verl extra
    from agentlightning.verl.agl_rollout_manager import CompletedRollout, Triplet
except ImportError:  # the script still shows what it would hand over
    CompletedRollout = Triplet = None


def read_snapshot(folder):
    """A snapshot's rows, shards in order (data/train-*.parquet)."""
    files = sorted(glob.glob(f"{folder}/data/train-*.parquet"))
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def plain(value):
    """numpy arrays (how pandas hands Parquet lists) as Python lists, recursively; None stays None."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def completed_rollouts(rows, step=0):
    """CompletedRollout objects (dicts without Agent Lightning), one per snapshot row.

    step, sample_idx_in_step and enqueue_time are the trainer's scheduling
    fields: Baton has none, so they are numbered here.
    """
    out = []
    for i, row in enumerate(rows.itertuples(index=False)):
        triplets = [plain(t) for t in plain(row.triplets)]
        fields = dict(rollout_id=row.rollout_id, data_id=row.data_id, step=step, sample_idx_in_step=i, enqueue_time=0.0,
                      final_reward=float(row.final_reward), metadata=plain(row.metadata))
        if CompletedRollout is None:
            out.append({**fields, "triplets": triplets})
        else:
            out.append(CompletedRollout(**fields, triplets=[Triplet(**t) for t in triplets]))
    return out


def per_call_scores(batch, rollouts):
    """Replace the rollout-level scores of get_train_data_batch's "transition" batch by each triplet's reward (Baton's per-call value)."""
    import torch

    rewards = [t.reward for r in sorted(rollouts, key=lambda r: (r.step, r.sample_idx_in_step)) for t in (r.triplets or [])]
    scores = batch.batch["token_level_scores"]
    if len(rewards) != scores.shape[0]:
        raise ValueError(f"{len(rewards)} triplets for {scores.shape[0]} rows: rows were dropped (empty responses?)")
    # the token get_train_data_batch puts a row's score on: the last attended one, then the response window kept
    attention_mask = batch.batch["attention_mask"]
    positions = torch.arange(attention_mask.shape[-1], device=attention_mask.device).unsqueeze(0)
    last = torch.argmax(positions * attention_mask, dim=-1)
    full = torch.zeros_like(attention_mask, dtype=scores.dtype)
    full[torch.arange(len(rewards)), last] = torch.tensor(rewards, dtype=scores.dtype, device=scores.device)
    new = full[:, -scores.shape[-1]:].contiguous()
    batch.batch["token_level_scores"] = new
    return batch


if __name__ == "__main__":
    rollouts = completed_rollouts(read_snapshot(sys.argv[1]))
    first = rollouts[0]
    triplets = first["triplets"] if isinstance(first, dict) else first.triplets
    print(f"{len(rollouts)} rollouts; the first has {len(triplets)} triplets")
    # with Agent Lightning and verl installed:
    #   from agentlightning.verl.rollout_adapter import RolloutAdapter
    #   adapter = RolloutAdapter(max_prompt_length=..., max_response_length=..., device=..., pad_token_id=..., trace_aggregator_level="transition")
    #   batch, metrics = adapter.get_train_data_batch(rollouts)
    #   batch = per_call_scores(batch, rollouts)
