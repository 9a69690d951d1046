@provider
Feature: Correlation (§3.2, H4)
  A provider declaring capabilities.correlation echoes a request's id verbatim on the frames or error
  that answers it — also on errors, with several requests in flight, and on verified replies.

  @H4 @needs-correlation
  Scenario: A query's id is echoed on its frames
    Given the provider under test has answered the handshake
    When the harness sends a query carrying an id
    Then H4 is satisfied

  @H4 @needs-correlation
  Scenario: An id with non-ASCII, quote, backslash and line-separator characters is echoed byte for byte
    Given the provider under test has answered the handshake
    When the harness sends a query carrying an id with unusual characters
    Then H4 is satisfied

  @H4 @needs-correlation
  Scenario: An id with surrounding spaces and capital letters is echoed as sent, not trimmed or case-folded
    Given the provider under test has answered the handshake
    When the harness sends a query carrying an id with surrounding spaces and capitals
    Then H4 is satisfied

  @H4 @needs-correlation
  Scenario: A refused query's id is echoed on the error
    Given the provider under test has answered the handshake
    When the harness sends a malformed query carrying an id
    Then H4 is satisfied

  @H4 @needs-correlation
  Scenario: With several queries in flight each reply carries the id of the query it answers
    Given a fresh, handshaken connection to the provider under test
    When the harness sends 3 queries carrying ids at once
    Then H4 is satisfied

  @H4 @needs-correlation @needs-verify
  Scenario: A malformed verify's id is echoed on the error that refuses it
    Given the provider under test has answered the handshake
    When the harness sends a malformed verify carrying an id
    Then H4 is satisfied

  @H4 @S9-verify-correlation @needs-correlation @needs-verify
  Scenario: A verify's id is echoed on verified
    Given the provider under test has answered the handshake
    When the harness sends a verify carrying an id
    Then H4 and S9-verify-correlation are satisfied

  @S3.2-id-optional
  Scenario: A query without an id is answered in lock-step
    Given the provider under test has answered the handshake
    When the harness sends a query without an id
    Then S3.2-id-optional is satisfied
