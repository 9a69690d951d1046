@provider
Feature: Robustness and the wire (§2, §11, §13)

  @R1
  Scenario: Malformed input never crashes the provider, and the next valid query is answered
    Given a fresh, handshaken connection to the provider under test
    When the harness sends malformed input, each followed by a valid query
    Then R1 is satisfied

  @R2 @needs-stdio
  Scenario: On shutdown the provider exits with code 0 within the grace period
    Given a fresh, handshaken connection to the provider under test
    When the harness sends shutdown
    Then R2 is satisfied

  @U1 @S13-interop-validator
  Scenario: Unknown members in envelopes and nested objects are ignored, not rejected
    Given a fresh connection to the provider under test
    When the harness sends envelopes carrying unknown members
    Then U1 and S13-interop-validator are satisfied

  @S2.1-unknown-type @S3.2-notification
  Scenario: An unrecognised notification is ignored
    Given a fresh, handshaken connection to the provider under test
    When the harness sends an unknown notification, then a valid query
    Then S2.1-unknown-type and S3.2-notification are satisfied

  @S2.1-unknown-type
  Scenario: A payload-bearing request of an unknown type gets bad_request
    Given a fresh, handshaken connection to the provider under test
    When the harness sends a request of an unknown type
    Then S2.1-unknown-type is satisfied

  @S2.1-no-newline @S2-wire-shape @needs-stdio
  Scenario: Every line the provider writes is exactly one envelope
    Given a fresh connection to the provider under test
    When the harness makes the target write every kind of envelope
    Then S2.1-no-newline and S2-wire-shape are satisfied

  @S2-wire-shape
  Scenario: Every reply conforms to the interop wire schema
    Given the provider under test has answered the handshake
    When the harness sends every kind of request
    Then S2-wire-shape is satisfied
