"""verl-agent (GRPO, GiGPO): the columns its batches carry, from a Baton snapshot.

Build the snapshot with method=gigpo (or grpo) so that `advantage` is the
group-relative value; `anchor_obs` is the GiGPO step key Baton groups steps
by, `uid` the task (the group), `traj_uid` the rollout.

    python verl_agent_batch.py path/to/snapshot
"""
import glob
import sys

import numpy as np
import pandas as pd


def read_snapshot(folder):
    files = sorted(glob.glob(f"{folder}/data/train-*.parquet"))
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def verl_agent_batch(rows):
    rows = rows.sort_values(["traj_uid", "step"], kind="stable")
    episode = rows.groupby("traj_uid")["reward"].transform("sum")  # the part of R_total each rollout's calls carry
    return {
        "uid": rows["uid"].to_numpy(dtype=object),
        "traj_uid": rows["traj_uid"].to_numpy(dtype=object),
        "anchor_obs": rows["anchor_obs"].to_numpy(dtype=object),
        "rewards": episode.to_numpy(dtype=np.float32),
        "step_rewards": rows["reward"].to_numpy(dtype=np.float32),
        "advantages": rows["advantage"].to_numpy(dtype=np.float32),
        # down-weight rollouts a reward-hacking detector flags
        "loss_weight": np.where(rows["hacking_flags"].map(len) > 0, 0.0, 1.0).astype(np.float32),
    }


if __name__ == "__main__":
    batch = verl_agent_batch(read_snapshot(sys.argv[1]))
    print({k: v[:3] for k, v in batch.items()})
