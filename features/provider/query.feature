@provider
Feature: Query semantics (§5, §5.2, §6.1)

  @Q1
  Scenario: A kinds filter with each kind the target declares or serves returns only that kind
    Given the provider under test has answered the handshake
    When the harness queries for each kind the target declares or serves
    Then Q1 is satisfied

  @Q1
  Scenario: A kinds filter with several kinds returns only those kinds
    Given the provider under test has answered the handshake
    When the harness queries for several kinds at once
    Then Q1 is satisfied

  @Q1
  Scenario: A kinds filter compares kind names exactly: a served kind in capitals is another kind
    Given the provider under test has answered the handshake
    When the harness queries for a served kind spelled in capitals
    Then Q1 is satisfied

  @Q1
  Scenario: A kind the target does not serve gets zero frames or unsupported_kind
    Given the provider under test has answered the handshake
    When the harness queries for a kind the target does not serve
    Then Q1 is satisfied

  @S6.1-as-of
  Scenario: as_of pins retrieval to an instant
    Given the provider under test has answered the handshake
    When the harness queries with as_of pins around the validity bounds it serves
    Then S6.1-as-of is satisfied

  @E1 @needs-embeddings
  Scenario: A query vector whose length contradicts the declared dimension gets bad_request
    Given the provider under test has answered the handshake
    When the harness queries with an embedding of the wrong length
    Then E1 is satisfied

  @E1 @needs-embeddings
  Scenario: A query vector of the declared dimension is accepted
    Given the provider under test has answered the handshake
    When the harness queries with an embedding of the declared dimension
    Then E1 is satisfied
