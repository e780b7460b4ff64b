"""verl-agent (GRPO, GiGPO): the per-step non-tensor batch its trainer reads, from a Baton snapshot.

Build the snapshot with form `verl_agent` (and method=gigpo or grpo when the
snapshot's own advantage is to be used). Each row is one step (a model call)
with the keys verl-agent's TrajectoryCollector
(agent_system/multi_turn_rollout/rollout_loop.py) gathers per step: `uid`
(the group: the task), `traj_uid` (the rollout), `anchor_obs` (GiGPO's step
key), `rewards`, `active_masks`, `is_action_valid`, `episode_rewards`,
`episode_lengths`, `data_source`; plus `advantages` (Baton's value of the
step) and the prompt and response to tokenise.

`step_rewards` is what verl-agent's compute_step_discounted_returns
(gigpo/core_gigpo.py) makes of `rewards`: the discounted return of each step
within its trajectory. Tokenising `raw_prompt` and `response` into
input_ids / responses / response_mask is still the trainer's (its tokenizer
and chat template), unless the run recorded token ids.

    python verl_agent_batch.py path/to/snapshot [gamma]
"""
import glob
import sys

import numpy as np
import pandas as pd

NON_TENSOR_KEYS = ["uid", "traj_uid", "anchor_obs", "active_masks", "is_action_valid", "rewards", "episode_rewards", "episode_lengths", "data_source"]


def read_snapshot(folder):
    files = sorted(glob.glob(f"{folder}/data/train-*.parquet"))
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def step_discounted_returns(rewards, traj_uids, gamma):
    """verl-agent's compute_step_discounted_returns, on numpy: per trajectory, from the last step back."""
    returns = np.zeros(len(rewards), dtype=np.float32)
    for uid in np.unique(traj_uids):
        idx = np.where(traj_uids == uid)[0]
        running = 0.0
        for i in reversed(idx):
            running = float(rewards[i]) + gamma * running
            returns[i] = running
    return returns


def verl_agent_batch(rows, gamma=0.95):
    rows = rows.sort_values(["traj_uid", "step"], kind="stable").reset_index(drop=True)
    # verl-agent keeps these as object arrays (torch_to_numpy(..., is_object=True))
    batch = {key: rows[key].to_numpy(dtype=object) for key in NON_TENSOR_KEYS}
    batch["step_rewards"] = step_discounted_returns(rows["rewards"].to_numpy(dtype=np.float32), batch["traj_uid"], gamma)
    batch["advantages"] = rows["advantages"].to_numpy(dtype=np.float32)
    # down-weight rollouts a reward-hacking detector flags
    batch["loss_weight"] = np.where(rows["hacking_flags"].map(len) > 0, 0.0, 1.0).astype(np.float32)
    return batch


if __name__ == "__main__":
    batch = verl_agent_batch(read_snapshot(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 0.95)
    print({k: v[:3] for k, v in batch.items()})
