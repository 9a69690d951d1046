@provider
Feature: Verification (§9)
  Identities come from frames the target served moments ago, named by its handshake provider.name.

  @V2 @needs-verify
  Scenario: A verify is answered with a verified reply that answers it
    Given the provider under test has answered the handshake
    When the harness verifies the identities it was just served
    Then V2 is satisfied

  @V3 @needs-verify
  Scenario: Frames served moments ago are valid
    Given the provider under test has answered the handshake
    When the harness verifies the identities it was just served
    Then V3 is satisfied

  @V3 @needs-verify
  Scenario: A digest the target does not serve is never valid
    Given the provider under test has answered the handshake
    When the harness verifies the identities it serves, with altered digests
    Then V3 is satisfied

  @V3 @needs-verify
  Scenario: A frame id the target never served is never valid
    Given the provider under test has answered the handshake
    When the harness verifies frame ids the target never served
    Then V3 is satisfied

  @V3 @needs-verify
  Scenario: A frame id the target has retired is never valid
    Given the provider under test has answered the handshake
    When the harness verifies frame ids the target has retired
    Then V3 is satisfied

  @V4 @needs-verify
  Scenario: A stale verdict's replacement_digest is the current digest, never a body
    Given the provider under test has answered the handshake
    When the harness verifies the identities it serves, with altered digests
    Then V4 is satisfied
