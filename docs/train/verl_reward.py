"""verl: a reward function for a snapshot in the `verl` form.

verl's RLHFDataset (verl/utils/dataset/rl_dataset.py) reads the snapshot's
Parquet unchanged: `prompt` (chat messages), `data_source`, `ability`,
`reward_model` {style, ground_truth}, `extra_info`. Its reward manager calls
compute_score(data_source, solution_str, ground_truth, extra_info) for each
generated response; `extra_info` carries Baton's values of the recorded call
(`reward`, `credit`, `advantage`) and `ground_truth` the recorded reply's text.

verl generates a new response for each prompt; Baton's values score the
recorded one. This function gives Baton's value when the policy reproduces
the recorded reply and `mismatch` otherwise: replace that branch with your
own verifier (the recorded reply and Baton's value are the reference).

    data.train_files=snapshot/data/train-00000-of-00001.parquet
    custom_reward_function.path=docs/train/verl_reward.py custom_reward_function.name=compute_score
"""

SIGNAL = "advantage"  # or "credit" (CCP) or "reward" (the call's own weighted rewards)


def compute_score(data_source, solution_str, ground_truth, extra_info=None, mismatch=0.0, **kwargs):
    if data_source != "baton" or not extra_info:
        raise ValueError(f"not a Baton row: data_source={data_source!r}")
    value = float(extra_info[SIGNAL])
    if ground_truth is not None and solution_str.strip() == ground_truth.strip():
        return value
    return mismatch
