@provider
Feature: Representations (§6.4, §6.4.1)

  @P1
  Scenario: A full frame carries content and no content_ref, transform or canonical_content_hash
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then P1 is satisfied

  @P2 @needs-compact
  Scenario: A compact frame carries content, both hashes, its transform and a content_ref
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then P2 is satisfied

  @P3
  Scenario: A reference frame carries a content_ref and canonical hash, and no inline content
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then P3 is satisfied

  @P4
  Scenario: token_cost is the cost of the inline rendering only
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then P4 is satisfied

  @P5
  Scenario: Only advertised representations are served
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then P5 is satisfied

  @P5
  Scenario: An unadvertised representation is refused, or answered in full
    Given the provider under test has answered the handshake
    When the harness requests a representation the target does not advertise
    Then P5 is satisfied

  @S6.4.1-no-reference-over-transport
  Scenario: No reference frames cross a transport binding
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then S6.4.1-no-reference-over-transport is satisfied

  @S6.4.1-in-process-reference @needs-in-process
  Scenario: An in-process provider may serve reference frames
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then S6.4.1-in-process-reference is satisfied
