@provider
Feature: Handshake, versioning and data flow (§3, §4)
  The harness opens with a handshake for contextgraph/1.0. The provider answers with a handshake_ack in
  the host's major family that names itself, declares its data flow honestly and consistently, and
  advertises capabilities it can honour. A foreign family is refused with the named error, promptly.

  @H1
  Scenario: The handshake is acknowledged in the host's version family
    Given the provider under test has answered the handshake
    Then H1 is satisfied

  @H2
  Scenario: The acknowledgement names the provider and its version
    Given the provider under test has answered the handshake
    Then H2 is satisfied

  @H1 @S3.1-compare-families
  Scenario Outline: A handshake from another minor of the same family is acknowledged (<version>)
    Given a fresh connection to the provider under test
    When the harness sends a handshake for "<version>"
    Then H1 and S3.1-compare-families are satisfied

    Examples:
      | version                |
      | contextgraph/1.9       |
      | contextgraph/1.10      |
      | contextgraph/1.0-draft |

  @H3
  Scenario: A foreign protocol family is refused with incompatible_version, never left to hang
    Given a fresh connection to the provider under test
    When the harness sends a handshake for "contextgraph/2.0"
    Then H3 is satisfied

  @H3
  Scenario Outline: A family is the whole major, compared for equality (<version> is foreign)
    Given a fresh connection to the provider under test
    When the harness sends a handshake for "<version>"
    Then H3 is satisfied

    Examples:
      | version           |
      | contextgraph/10.0 |
      | contextgraph/0.9  |

  @H1
  Scenario: A second handshake on an established connection is answered too
    Given a fresh, handshaken connection to the provider under test
    When the harness sends a second handshake on the same connection
    Then H1 is satisfied

  @S3-handshake-first @needs-stdio
  Scenario: No query payload moves before the handshake completes
    Given a fresh connection to the provider under test
    When the harness sends a query before the handshake
    Then S3-handshake-first is satisfied

  @C5
  Scenario: No off-machine egress scope is declared alongside egress false
    Given the provider under test has answered the handshake
    Then C5 is satisfied

  @C3
  Scenario: Egress is declared, and declared honestly where the transport can tell
    Given the provider under test has answered the handshake
    Then C3 is satisfied

  @S4.1-egress-scopes
  Scenario: Declared egress scopes come from the vocabulary or are namespaced
    Given the provider under test has answered the handshake
    Then S4.1-egress-scopes is satisfied

  @U3
  Scenario: Vendor names in open vocabularies (scopes, rels, error codes) are namespaced
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    And the harness sends a malformed query
    Then U3 is satisfied

  @S6.4.1-resolve-declared
  Scenario: A provider advertising compact or reference sets resolve true
    Given the provider under test has answered the handshake
    Then S6.4.1-resolve-declared is satisfied

  @E1 @needs-embeddings
  Scenario: The declared embeddings fingerprint follows <model-id>/<dimensions>[/<normalization>]
    Given the provider under test has answered the handshake
    Then E1 is satisfied
