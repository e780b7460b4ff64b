"""Agent Lightning: train on Baton's credit instead of identical credit.

Agent Lightning's trainers take triplets (prompt, response, reward) made
from a rollout's spans by a TraceAdapter; by default every call of a rollout
gets the rollout's reward. This adapter reads a Baton snapshot instead: one
triplet per model call, its reward the call's credit (or the advantage of
the method the snapshot was built with), token ids as Baton kept them.

    python agent_lightning_adapter.py path/to/snapshot
"""
import glob
import json
import sys

import pandas as pd

try:  # Agent Lightning's adapter interface, when it is installed
    from agentlightning.adapter import TraceAdapter
    from agentlightning.types import Triplet
except ImportError:  # the script still shows what it would hand over
    TraceAdapter = object

    def Triplet(**fields):
        return fields


def read_snapshot(folder):
    """A snapshot's transitions, shards in order (data/train-*.parquet)."""
    files = sorted(glob.glob(f"{folder}/data/train-*.parquet"))
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


class BatonTransitionsAdapter(TraceAdapter):
    """Triplets from Baton transitions; `signal` is "credit" (CCP) or "advantage" (the snapshot's method)."""

    def __init__(self, signal="credit"):
        self.signal = signal

    def adapt(self, source):
        rows = source if isinstance(source, pd.DataFrame) else read_snapshot(source)
        triplets = []
        for row in rows.itertuples(index=False):
            prompt_ids = row.prompt_token_ids
            response_ids = row.response_token_ids
            triplets.append(Triplet(
                prompt={"messages": json.loads(row.prompt), "token_ids": None if prompt_ids is None else list(prompt_ids)},
                response={"message": json.loads(row.response), "token_ids": None if response_ids is None else list(response_ids)},
                reward=float(getattr(row, self.signal)),
                metadata={"rollout_id": row.traj_uid, "task": row.uid, "call_id": row.call_id, "agent": row.agent,
                          "step": int(row.step), "hacking_flags": list(row.hacking_flags)},
            ))
        return triplets


if __name__ == "__main__":
    triplets = BatonTransitionsAdapter().adapt(sys.argv[1])
    print(f"{len(triplets)} triplets; first reward {triplets[0]['reward'] if isinstance(triplets[0], dict) else triplets[0].reward}")
