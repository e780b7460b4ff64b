"""SkyRL: a GeneratorOutput from a snapshot in the `skyrl` form.

Each row is one model call with the keys of SkyRL's GeneratorOutput
(skyrl/train/generators/base.py), one item each: `prompt_token_ids`,
`response_ids`, `rewards` (Baton's advantage of the call, a float per row),
`loss_masks`, `rollout_logprobs`, `stop_reasons`, `is_last_step`; and `prompt`
(chat messages, the key SkyRL's PromptDataset reads). Rows without token ids
(null) must be tokenised by the trainer first: `prompt` with its chat
template, `response` for the reply.

    python skyrl_generator_output.py path/to/snapshot
"""
import glob
import sys

import pyarrow.parquet as pq

KEYS = ["prompt_token_ids", "response_ids", "rewards", "loss_masks", "rollout_logprobs", "stop_reasons", "is_last_step"]


def generator_output(folder):
    rows = [r for f in sorted(glob.glob(f"{folder}/data/train-*.parquet")) for r in pq.read_table(f).to_pylist()]
    with_ids = [r for r in rows if r["prompt_token_ids"] is not None and r["response_ids"] is not None]
    out = {key: [r[key] for r in with_ids] for key in KEYS}
    if any(lp is None for lp in out["rollout_logprobs"]):
        out["rollout_logprobs"] = None  # SkyRL takes all or none
    out.update(rollout_metrics=None, trajectory_ids=None)
    return out, len(rows) - len(with_ids)


if __name__ == "__main__":
    output, untokenised = generator_output(sys.argv[1])
    print(f"{len(output['response_ids'])} rows with token ids; {untokenised} to tokenise first")
