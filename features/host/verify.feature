@host
Feature: Verify and reuse: identities only, and a stored body is reused only on a confirmed "valid" (V1, D3, D4, V4, S9-verify-correlation)
  A host that holds frames across queries asks the provider that served them whether their identities
  still hold (§9). The scripted provider records every verify it RECEIVES, so "no body travelled" is
  observed on the wire; what the host may reuse is what its verify outcome retains.

  @V1 @S6.5.2-provider-id
  Scenario: A verify request carries frame identities only, never their bodies
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_beta", "content": "beta: the retry budget is five attempts" } ] }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then every verify "docs" received carried frame identities only (V1)

  @D3 @V1 @S6.5.2-provider-id
  Scenario: A digest-less frame is re-queried, never reused from a stored copy
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_nodigest", "content": "a frame whose provider declares no content_digest", "digest": false } ] }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then the digest-less frame of "docs" was re-queried, not reused (D3)
    And every verify "docs" received carried frame identities only (V1)

  @D4 @V4
  Scenario: Only a body the provider confirmed valid is reused; stale and gone copies are discarded
    Given a scripted provider "docs" with the script:
      """
      { "verify": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" },
                   { "id": "frm_beta", "content": "beta: the retry budget is five attempts" },
                   { "id": "frm_gamma", "content": "gamma: jitter is drawn uniformly from the delay" } ],
        "verdicts": { "frm_beta": { "status": "stale", "replacement_digest": "sha256:1111111111111111111111111111111111111111111111111111111111111111" },
                      "frm_gamma": "gone" } }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then the host reused only the bodies "docs" confirmed valid (D4, V4)

  @S9-verify-correlation
  Scenario: A verify to a provider declaring correlation carries an id, as a query does
    Given a scripted provider "docs" with the script:
      """
      { "verify": true, "correlation": true,
        "serve": [ { "id": "frm_alpha", "content": "alpha: retries back off exponentially from 100 ms" } ] }
      """
    And the host under test has connected "docs"
    When the host under test fans a query out
    And the host under test verifies every frame it holds from "docs"
    Then every verify "docs" received carried a correlation id (S9-verify-correlation)
