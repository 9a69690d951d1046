@host
Feature: Verify verdicts: an unanswered identity is unknown, and only "valid" lets a held body be reused (V2, V3)
  The host asks the provider that served its held frames whether their identities still hold (§9). The
  scripted provider answers per frame as scripted — or leaves a requested identity without any verdict —
  and records every verify it RECEIVES; what the host may reuse is what its verify outcome retains.

  @V2
  Scenario: A requested identity that comes back with no verdict is treated as unknown, never as valid
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_beta", "content": "beta: the retry budget is five attempts" },
                   { "id": "frm_gamma", "content": "gamma: jitter is drawn uniformly from the delay" } ],
        "noVerdict": [ "frm_beta" ] }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then every frame "docs" left without a verdict was treated as unknown: not reused, re-queried (V2)

  @V3
  Scenario: An unknown verdict is never read as validity; only the frames answered valid are reused
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_beta", "content": "beta: the retry budget is five attempts" },
                   { "id": "frm_gamma", "content": "gamma: jitter is drawn uniformly from the delay" } ],
        "verdicts": { "frm_beta": "unknown", "frm_gamma": { "status": "unknown" } } }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then the host reused no body "docs" did not answer valid (V3)

  @V3
  Scenario: A verify answered with an error is no positive answer: nothing held is reused
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_beta", "content": "beta: the retry budget is five attempts" } ],
        "verifyError": { "type": "error", "code": "unavailable", "message": "the index is being rebuilt" } }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then the host reused no body "docs" did not answer valid (V3)
