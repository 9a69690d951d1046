@provider
Feature: Frame validity (§6, §6.2, §6.3, §8)
  Every frame of every answer is checked; each anchor has its own scenario so a failure names it.
  Answers come from a generous query and from one query per advertised representation.

  @F1
  Scenario: Every score is in [0, 1]
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then F1 is satisfied

  @F2
  Scenario: Every title is non-empty
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then F2 is satisfied

  @F3
  Scenario: Every citation_label is non-empty
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then F3 is satisfied

  @F4
  Scenario: valid_from, valid_to and recorded_at follow the temporal profile
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    And the harness queries with as_of pins around the validity bounds it serves
    Then F4 is satisfied

  @F5
  Scenario: File provenance carries a sha256 digest in lowercase hex
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then F5 is satisfied

  @F5 @S6.2-digested-bytes
  Scenario: File provenance digests match the exact bytes at uri and range
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    And the harness re-reads the bytes every file provenance link addresses
    Then F5 and S6.2-digested-bytes are satisfied

  @D1
  Scenario: Every content_digest is sha256 in lowercase hex
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then D1 is satisfied

  @S6.3-content-digest
  Scenario: content_digest is the SHA-256 of the frame's inline content bytes
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then S6.3-content-digest is satisfied

  @G1
  Scenario: Every relation carries a display_name
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then G1 is satisfied

  @G2
  Scenario: Every relation target_uri is a non-empty URI
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    Then G2 is satisfied
