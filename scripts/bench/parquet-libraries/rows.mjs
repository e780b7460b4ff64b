// synthetic transitions, deterministic
export function* rows(n) {
  for (let i = 0; i < n; i++) {
    const t = Math.floor(i / 10);
    yield {
      uid: `task-${t % 1000}`, group_id: `g-${t % 500}`, traj_uid: `trace-${t}`, step: i % 10, call_id: `call-${i}`,
      agent: ["orchestrator", "researcher", "writer"][i % 3], role: i % 4 === 0 ? null : "worker", model: "gpt-mock",
      prompt: JSON.stringify([{ role: "system", content: "You are the researcher. Find facts with tools." }, { role: "user", content: `Question number ${i}: what is the population of city ${i % 977}?` }, { role: "tool", content: `{"city":"c${i % 977}","population":${(i * 7919) % 1000000}}` }]),
      response: JSON.stringify({ role: "assistant", content: `City c${i % 977} has about ${(i * 7919) % 1000000} inhabitants.` }),
      prompt_token_ids: i % 2 ? null : [1, 2, 3, 4, 5, 6, 7, 8].map((x) => (x * i) % 50000),
      reward: ((i % 13) - 6) / 7, credit: Math.sin(i), advantage: Math.cos(i), anchor_obs: '["worker","tool_call","search"]',
      method: "ccp", preset: "uniform", version: "baton-spec-4", annotations_as_of: null,
    };
  }
}
export const STRING_COLS = ["uid", "group_id", "traj_uid", "call_id", "agent", "role", "model", "prompt", "response", "anchor_obs", "method", "preset", "version", "annotations_as_of"];
export const NUM_COLS = ["reward", "credit", "advantage"];
