@provider
Feature: Edges (§3.1, §5, §6.1, §7, §9, §11, §13)
  Each class of input at its edges: numbers at 0 and at both sides of their limits, vectors shorter than
  declared, ids of every shape, an empty verify, lines longer than a read buffer or nested deeper than a
  recursive parser goes, member names in other case, and every grammar a query carries at its edges
  (docs/interpretations.md §111–§116). Where the spec allows several answers, each is accepted.

  @B1
  Scenario: max_tokens 0 returns no frame that costs anything
    Given the provider under test has answered the handshake
    When the harness queries with max_tokens 0
    Then B1 is satisfied

  @B1
  Scenario: max_tokens exactly at a sum of costs, one below it, and at the top of its type is honoured
    Given the provider under test has answered the handshake
    When the harness queries with max_tokens exactly at and one below its limits
    Then B1 is satisfied

  @B4
  Scenario: max_frames exactly at the served count, one below it, and at the top of its type is honoured
    Given the provider under test has answered the handshake
    When the harness queries with max_frames exactly at and one below its limits
    Then B4 is satisfied

  @R1
  Scenario: Budgets beyond their type's range are refused, never crashed on
    Given a fresh, handshaken connection to the provider under test
    When the harness sends budgets beyond their type's range, each followed by a valid query
    Then R1 is satisfied

  @E1 @needs-embeddings
  Scenario: A query vector shorter than the declared dimension gets bad_request
    Given the provider under test has answered the handshake
    When the harness queries with embeddings shorter than the declared dimension
    Then E1 is satisfied

  @H4 @needs-correlation
  Scenario: Ids of every shape come back as the same strings (numeric-looking, keywords, long)
    Given the provider under test has answered the handshake
    When the harness sends queries carrying ids of every shape
    Then H4 is satisfied

  @V2 @needs-verify
  Scenario: A verify naming no identity is answered with verified
    Given the provider under test has answered the handshake
    When the harness sends a verify naming no frame identity
    Then V2 is satisfied

  @U1
  Scenario: A member spelled in other case is an unknown member, and ignored
    Given the provider under test has answered the handshake
    When the harness sends members spelled in other case beside the real ones
    Then U1 is satisfied

  @R1
  Scenario: Valid lines longer than common read buffers (80 KiB, 1.5 MiB) get one reply each, never a crash
    Given a fresh, handshaken connection to the provider under test
    When the harness sends valid lines longer than common read buffers, each followed by a valid query
    Then R1 is satisfied

  @R1
  Scenario: A valid line nested far deeper than 512 levels never crashes the provider
    Given a fresh, handshaken connection to the provider under test
    When the harness sends a valid line nested far deeper than 512 levels, then a valid query
    Then R1 is satisfied

  @S6.1-as-of
  Scenario: as_of with one to nine fractional digits is answered (the F4 profile at its edges)
    Given the provider under test has answered the handshake
    When the harness queries with as_of at the edges of the timestamp profile
    Then S6.1-as-of is satisfied

  @R1
  Scenario: as_of spellings off the F4 profile are bad requests, never crashed on
    Given a fresh, handshaken connection to the provider under test
    When the harness sends as_of spellings off the timestamp profile, each followed by a valid query
    Then R1 is satisfied

  @Q1
  Scenario: Kind names at their edges are other kinds (a prefix, a plural)
    Given the provider under test has answered the handshake
    When the harness queries for kind names at the edges of the served kinds' names
    Then Q1 is satisfied

  @G4 @needs-graph
  Scenario: Every anchor of the list counts, not only the first
    Given the provider under test has answered the handshake
    When the harness queries anchored on an unknown URI and then a frame's own uri with max_frames 1
    Then G4 is satisfied

  @H1 @S3.1-compare-families
  Scenario Outline: A minor of any length is in the family (<version>)
    Given a fresh connection to the provider under test
    When the harness sends a handshake for "<version>"
    Then H1 and S3.1-compare-families are satisfied

    Examples:
      | version                                  |
      | contextgraph/1.4294967296                |
      | contextgraph/1.340282366920938463463374607431768211456-draft |
