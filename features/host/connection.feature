@host
Feature: The host refuses a provider it cannot use, at the handshake (H3, C5)
  A provider's handshake_ack is checked before the provider can ever be queried. A version-family
  mismatch is a named error raised as soon as the ack is read, never a hang; a data flow declaring
  egress:false alongside an off-machine egress scope is a contradiction the host rejects. The scripted
  provider records every line it receives, so "never queried" is observed on the wire.

  @H3
  Scenario: A provider acking another major protocol family is refused promptly with a named error
    Given a scripted provider "future-index" with the script:
      """
      { "protocol_version": "contextgraph/2.0" }
      """
    When the host under test tries to connect "future-index"
    And the host under test fans a query out
    Then the host refused "future-index" promptly with a named version mismatch and never queried it (H3)

  @H3
  Scenario: A provider refusing the handshake with incompatible_version is refused promptly with a named error
    Given a scripted provider "strict-index" with the script:
      """
      { "ack": { "type": "error", "code": "incompatible_version", "message": "only contextgraph/2.x is spoken here" }, "protocol_version": "contextgraph/2.0" }
      """
    When the host under test tries to connect "strict-index"
    And the host under test fans a query out
    Then the host refused "strict-index" promptly with a named version mismatch and never queried it (H3)

  @C5
  Scenario: A provider declaring egress:false with an off-machine egress scope is rejected at the handshake
    Given a scripted provider "two-faced" with the script:
      """
      { "egress": false, "egress_scopes": ["third-party-index"] }
      """
    When the host under test tries to connect "two-faced"
    And the host under test fans a query out
    Then the host refused "two-faced" at the handshake for its contradictory data flow and never queried it (C5)
