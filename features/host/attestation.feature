@host
Feature: Attestation verdicts: "I cannot check this" is never "this is good", and never a reason to drop (F8, F9, S6.5.4-distinct-verdicts, S6.5.4-strict-ed25519)
  The host connects the bundled reference provider, which signs its results, through a tee that records
  every line the provider SENT: the frames and attestations on the wire are the reference the host's
  verdicts and answers are judged against. The fixture mode `unknown-attestation-algorithm` signs with
  genuine Ed448 signatures under an "ed448" key: contextgraph/1.0 defines only "ed25519" (docs/interpretations.md §6), so a
  host cannot recognise it.

  @F9
  Scenario: A result signed with an algorithm the host does not recognise keeps every frame
    Given the host under test has connected the bundled reference provider "example-docs" in its "unknown-attestation-algorithm" mode
    When the host under test fans a query out
    Then every frame "example-docs" served is among the host's answers and in a prompt composed with room for all (F9)

  @F8 @needs-attestation-checks
  Scenario: A result signed with an algorithm the host does not recognise is uncheckable, never attested
    Given the host under test has connected the bundled reference provider "example-docs" in its "unknown-attestation-algorithm" mode
    When the host under test fans a query out
    Then every frame "example-docs" served under its unrecognised algorithm is reported uncheckable, never attested (F8)

  @S6.5.4-distinct-verdicts @needs-attestation-checks
  Scenario: A tampered frame and a genuine one get distinct verdicts, not a boolean
    Given the host under test has connected the bundled reference provider "example-docs" in its "altered-after-signing" mode
    When the host under test fans a query out
    Then the host reported these attestation verdicts for what "example-docs" served (S6.5.4-distinct-verdicts):
      | frame               | verdict             |
      | frm_getting_started | commitment-mismatch |
      | frm_configuration   | attested            |

  @S6.5.4-distinct-verdicts @F8 @needs-attestation-checks
  Scenario: An unrecognised algorithm is reported uncheckable, distinct from unattested
    Given the host under test has connected the bundled reference provider "example-docs" in its "unknown-attestation-algorithm" mode
    When the host under test fans a query out
    Then the host reported these attestation verdicts for what "example-docs" served (S6.5.4-distinct-verdicts):
      | frame               | verdict     |
      | frm_getting_started | uncheckable |
      | frm_retry_policy    | uncheckable |

  @S6.5.4-strict-ed25519 @needs-attestation-checks
  Scenario: A signature that verifies only because the public key has small order does not attest
    Given a scripted provider "docs" that signs its result under a small-order ed25519 key
    And the host under test has connected "docs"
    When the host under test fans a query out
    Then no frame "docs" served under its small-order key is reported attested (S6.5.4-strict-ed25519)

  @S6.5.4-strict-ed25519 @needs-attestation-checks
  Scenario: An all-zero signature under the all-zero (small-order) public key does not attest
    Given a scripted provider "docs" that signs its result with an all-zero signature under the all-zero ed25519 key
    And the host under test has connected "docs"
    When the host under test fans a query out
    Then no frame "docs" served under its small-order key is reported attested (S6.5.4-strict-ed25519)
