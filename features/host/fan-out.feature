@host
Feature: Each provider's copy of the query, and what the host makes of its reply (E1, P5, S3.2, X1, X2, S10, U2, S8.1)
  The host shapes the query for every provider from that provider's handshake: an embedding only on an
  exact fingerprint match (E1), only advertised representation preferences (P5), no correlation id to a
  provider that did not declare correlation (S3.2). It reads an error with an unknown or absent code as
  internal (X1, X2) and incompatible_version as permanent (S10): reported, never retried. Frames of an
  unknown kind or carrying an unknown rel are kept verbatim (U2, S8.1). The scripted providers record
  every line they receive, so each of these is observed on the wire.

  @E1
  Scenario: Only a provider declaring exactly the host's embedding fingerprint receives the embedding
    Given the host under test has the embedding fingerprint "bge-small-en-v1.5/384/l2"
    And a scripted provider "unnormalised" with the script:
      """
      { "fingerprint": "bge-small-en-v1.5/384" }
      """
    And a scripted provider "same-model" with the script:
      """
      { "fingerprint": "bge-small-en-v1.5/384/l2" }
      """
    And the host under test has connected "unnormalised"
    And the host under test has connected "same-model"
    When the host under test fans out a query carrying a 384-number embedding
    Then "unnormalised" received no embedding, while "same-model" with the host's fingerprint could (E1)

  @E1
  Scenario: A provider declaring no fingerprint never receives the embedding
    Given the host under test has the embedding fingerprint "bge-small-en-v1.5/384/l2"
    And a scripted provider "lexical" with the script:
      """
      { }
      """
    And a scripted provider "same-model" with the script:
      """
      { "fingerprint": "bge-small-en-v1.5/384/l2" }
      """
    And the host under test has connected "lexical"
    And the host under test has connected "same-model"
    When the host under test fans out a query carrying a 384-number embedding
    Then "lexical" received no embedding, while "same-model" with the host's fingerprint could (E1)

  @P5
  Scenario: A provider is never asked for a representation it did not advertise
    Given a scripted provider "full-only" with the script:
      """
      { "representations": ["full"] }
      """
    And the host under test has connected "full-only"
    When the host under test fans out a query preferring the representations "reference, full"
    Then "full-only" was asked only for representations it advertised (P5)

  @P5
  Scenario: A provider advertising no representations is sent no preference it did not advertise
    Given a scripted provider "plain" with the script:
      """
      { }
      """
    And the host under test has connected "plain"
    When the host under test fans out a query preferring the representations "compact"
    Then "plain" was asked only for representations it advertised (P5)

  @S3.2-no-id-without-correlation
  Scenario: A provider that did not declare correlation is queried in lock-step, without an id
    Given a scripted provider "lockstep" with the script:
      """
      { "correlation": false }
      """
    And the host under test has connected "lockstep"
    When the host under test fans a query out
    Then "lockstep" received no correlation id (S3.2-no-id-without-correlation)

  @X1
  Scenario: An error with an unrecognised code is read as internal: reported, never retried
    Given a scripted provider "vendor-errors" with the script:
      """
      { "errorCode": "acme:quota-exceeded" }
      """
    And the host under test has connected "vendor-errors"
    When the host under test fans a query out
    Then "vendor-errors" received the query exactly once and the host reported its error as not retryable (X1)

  @X2
  Scenario: An error with no code is read as internal: reported, never retried
    Given a scripted provider "terse-errors" with the script:
      """
      { "errorCode": null }
      """
    And the host under test has connected "terse-errors"
    When the host under test fans a query out
    Then "terse-errors" received the query exactly once and the host reported its error as not retryable (X2)

  @S10-not-retryable
  Scenario: incompatible_version in answer to a query is permanent: reported, never retried
    Given a scripted provider "migrated" with the script:
      """
      { "errorCode": "incompatible_version" }
      """
    And the host under test has connected "migrated"
    When the host under test fans a query out
    Then "migrated" received the query exactly once and the host reported its error as not retryable (S10-not-retryable)

  @U2
  Scenario: A frame of an unrecognised kind is kept as opaque evidence, its kind verbatim
    Given a scripted provider "diagrams" with the script:
      """
      { "serve": [ { "id": "frm_arch", "kind": "acme:diagram" }, { "id": "frm_readme", "kind": "doc" } ] }
      """
    And the host under test has connected "diagrams"
    When the host under test fans a query out
    Then the host kept the frame "frm_arch" of "diagrams" with its kind verbatim (U2)

  @S8.1-rel-open
  Scenario: A relation with an unknown rel does not get its frame rejected
    Given a scripted provider "linked" with the script:
      """
      { "serve": [ { "id": "frm_spec", "kind": "doc", "extra": { "relations": [ { "rel": "acme:supersedes", "target_uri": "file:///docs/spec-v1.md", "display_name": "spec v1" } ] } } ] }
      """
    And the host under test has connected "linked"
    When the host under test fans a query out
    Then the host kept the frame "frm_spec" of "linked" with its relation verbatim (S8.1-rel-open)
