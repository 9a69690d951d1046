@provider
Feature: Provenance attestation on the wire (§6.5)
  Answers are verified under the attester_keys the target publishes in its handshake_ack, with a generous
  budget and a truncating one (a root over truncated-away candidates only shows when something was cut).

  @F6
  Scenario: No attestation travels inside a frame
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    Then F6 is satisfied

  @F7 @needs-attestation
  Scenario: Every signed_commitment is the commitment of what it signs
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    And the harness verifies the attestations of every answer
    Then F7 is satisfied

  @F11 @needs-attestation
  Scenario: Attestations travel beside the frames and name the full identity of a carried frame
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    And the harness verifies the attestations of every answer
    Then F11 is satisfied

  @F12 @needs-attestation
  Scenario: The result root covers exactly the frames returned, even when truncated
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    And the harness verifies the attestations of every answer
    Then F12 is satisfied

  @F13 @needs-attestation
  Scenario: Every inclusion proof recomputes the result root
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    And the harness verifies the attestations of every answer
    Then F13 is satisfied

  @S6.5.2-provider-id @needs-attestation
  Scenario: Attested identities name the provider by its handshake provider.name
    Given the provider under test has answered the handshake
    When the harness queries with a generous and a truncating budget
    And the harness verifies the attestations of every answer
    Then S6.5.2-provider-id is satisfied
