"""rLLM: Episodes from a snapshot in the `rllm` form.

Each row is one trace in the shape rLLM's Episode.to_dict writes and
Episode.from_dict reads (rllm/types.py): `id` ("task_id:trace_id"), `task`,
`termination_reason`, `is_correct`, `trajectories` (one per agent, named by
it, a step per model call with `chat_completions`, `prompt_ids`,
`response_ids`, `logprobs`, `reward`, `done`, `mc_return`, `advantage`),
`metrics`, `info`. Token ids are [] where the call recorded none: rLLM's
trainer must then tokenise `chat_completions` itself.

    python rllm_episodes.py path/to/snapshot
"""
import glob
import sys

import pyarrow.parquet as pq

try:
    from rllm.types import Episode
except ImportError:  # show what rLLM would get
    Episode = None


def episodes(folder):
    for f in sorted(glob.glob(f"{folder}/data/train-*.parquet")):
        for row in pq.read_table(f).to_pylist():  # nested structs and lists as dicts and lists
            yield row if Episode is None else Episode.from_dict(row)


if __name__ == "__main__":
    first = next(episodes(sys.argv[1]))
    trajectories = first["trajectories"] if isinstance(first, dict) else first.trajectories
    print(f"{len(trajectories)} trajectories in the first episode")
