@host
Feature: Inclusion proofs survive composition: a strict subset of a signed result keeps a proof per kept frame (F13)
  A provider signs its whole result once (a result_attestation over the §6.5.3 root). When the host
  keeps only some of those frames, the root can be recomputed for a kept frame only through its
  inclusion proof, and that proof can be derived only while the siblings are still in hand. The check
  folds every kept frame's proof, independently of the host, against the root as served.

  @F13 @needs-attestation-checks
  Scenario: Proofs the provider did not ship are derived before the rest of a signed result is dropped
    Given a scripted provider "signed" that signs its result without inclusion proofs
    And the host under test has connected "signed"
    When the host under test fans a query out
    And the host under test composes the answers within 420 budget tokens
    Then every frame the composition kept of "signed"'s signed result carries an inclusion proof recomputing its root (F13)

  @F13 @needs-attestation-checks
  Scenario: Proofs the provider shipped are retained for the frames kept out of a signed result
    Given a scripted provider "signed" that signs its result and ships an inclusion proof per frame
    And the host under test has connected "signed"
    When the host under test fans a query out
    And the host under test composes the answers within 420 budget tokens
    Then every frame the composition kept of "signed"'s signed result carries an inclusion proof recomputing its root (F13)
