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

  @V3 @needs-verify
  Scenario: One verify mixing a served identity, an altered digest and an unknown id gets a verdict for each
    Given the provider under test has answered the handshake
    When the harness verifies served, altered and unknown identities in one request
    Then V3 is satisfied

  @S6.5.2-provider-id @needs-verify
  Scenario: An identity naming another provider is not vouched for (provider_id is the declared provider.name)
    Given the provider under test has answered the handshake
    When the harness verifies frames it was served, named under another provider id
    Then S6.5.2-provider-id is satisfied

  @V4 @needs-verify
  Scenario: A stale verdict's replacement_digest is the current digest, never a body
    Given the provider under test has answered the handshake
    When the harness verifies the identities it serves, with altered digests
    Then V4 is satisfied
