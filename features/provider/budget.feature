@provider
Feature: Budget honesty (§7)
  Budgets are probed generous and tight: a tight max_tokens and a tight max_frames must be honoured by
  returning fewer frames, and every token_cost must be the exact budget cost of the inline content.

  @B1
  Scenario: The declared costs fit a typical max_tokens
    Given the provider under test has answered the handshake
    When the harness queries with max_frames 8 and max_tokens 4096
    Then B1 is satisfied

  @B1
  Scenario: A max_tokens between one and two frames is honoured by truncation
    Given the provider under test has answered the handshake
    When the harness queries with max_tokens between the two cheapest frames' costs
    Then B1 is satisfied

  @B1
  Scenario: A max_tokens below the cheapest frame returns nothing that exceeds it
    Given the provider under test has answered the handshake
    When the harness queries with max_tokens below the cheapest frame's cost
    Then B1 is satisfied

  @B1
  Scenario: Anchored frames count against max_tokens like any other
    Given the provider under test has answered the handshake
    When the harness queries anchored on every frame it serves with max_tokens of the cheapest frame's cost
    Then B1 is satisfied

  @B3
  Scenario: Every token_cost equals ceil(UTF-8 bytes of content / 4), in every answer
    Given the provider under test has answered the handshake
    When the harness queries in every advertised representation
    And the harness queries with max_frames 8 and max_tokens 4096
    And the harness queries with max_tokens between the two cheapest frames' costs
    Then B3 is satisfied

  @B4
  Scenario: A typical max_frames is honoured
    Given the provider under test has answered the handshake
    When the harness queries with max_frames 8 and max_tokens 4096
    Then B4 is satisfied

  @B4
  Scenario: max_frames 1 returns at most one frame
    Given the provider under test has answered the handshake
    When the harness queries with max_frames 1
    Then B4 is satisfied

  @B4
  Scenario: max_frames 0 returns no frame
    Given the provider under test has answered the handshake
    When the harness queries with max_frames 0
    Then B4 is satisfied
