@host
Feature: Usage report and attribution: a billed total walkable back to FrameIds, and citations observed, not inferred (UR1, A1, A2, A3)
  The host composes what a scripted provider served into a budget that holds two of its three frames,
  reports the usage of the query and attributes a model output the scenario hands in. The output
  quotes the citation label of one rendered frame, and names the frame id of the one frame that was billed
  but cannot be rendered: its content alone costs more than the whole budget, whatever the host's chrome
  costs (no observation makes it cited: cited ⇒ rendered, A3).

  Background:
    Given a scripted provider "docs" with the script:
      """
      { "serve": [
          { "id": "frm_alpha", "score": 0.9, "citation_label": "alpha.md L1-3",
            "content": "Retries back off exponentially, starting at 100 ms and doubling each attempt." },
          { "id": "frm_beta", "score": 0.8, "citation_label": "beta.md L4-9",
            "content": "The retry budget allows five attempts before the call fails." },
          { "id": "frm_gamma", "score": 0.1, "citation_label": "gamma.md L1-60",
            "content": "Jitter. A long appendix on jitter strategies: full jitter draws the delay uniformly between zero and the capped exponential value; equal jitter keeps half of it fixed; decorrelated jitter grows from the previous delay. Each trades tail latency against contention, and the right choice depends on how many clients retry at once and whether the backing store recovers gradually or all at once. Appendix A, in full. Full jitter spreads retries the most and keeps the fewest clients colliding, but the wait of one unlucky client can be long. Equal jitter bounds that wait from below at the price of more collisions. Decorrelated jitter needs the previous delay, so a client must remember it across attempts; a stateless client cannot use it. Appendix B, in full. A retry budget caps the share of requests that may be retries, so a struggling store is not buried by them; a token bucket per client enforces it, refilled by successes. Appendix C, in full. Measure before choosing: record the attempt count, the delays drawn and the store's recovery time, then compare the strategies under the same load, because the right answer changes with the number of clients and with how the store sheds its load. Appendix D, in full. Never retry a request that is not idempotent unless the server deduplicates it by a key the client sends with every attempt." } ] }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test composes its answers into 300 budget tokens, bills them and attributes the model output "Retries double from 100 ms [alpha.md L1-3]; frm_gamma covers jitter."

  @UR1 @S6.5.2-provider-id
  Scenario: The usage report bills exactly the served frames, by FrameId, and budget_consumed is their summed token_cost
    Then the usage report bills every frame served by its FrameId, budget_consumed being their summed token_cost (UR1)

  @A1 @S6.5.2-provider-id @needs-attribution
  Scenario: Attribution is keyed by the FrameId triple, the same one the usage report bills
    Then every attribution record is keyed by the FrameId of a frame served (A1)

  @A2 @needs-attribution
  Scenario: Only the frame the model output names is cited; rendering it is not citing it
    Then the attribution reports selected, rendered and cited apart, cited only where the model output names the frame (A2)

  @A3 @needs-attribution
  Scenario: The attribution record is coherent and reconciles with the usage report
    Then the attribution record is coherent and names only frames the usage report billed (A3)
