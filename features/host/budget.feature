@host
Feature: The host's budget audit and budget units (B2, S7.2)
  A provider that declares more token_cost than the query's max_tokens (B1) is dropped whole by the host,
  with a loud report naming it and what it declared against what was allowed — the host never keeps "the
  frames that fit". A model budget is a count of real model tokens; the host maps it into budget tokens
  (ceil(utf8 bytes / 4)) through a safety factor, never one for one.

  @B2
  Scenario: A provider declaring more than max_tokens is dropped whole and loudly, never truncated
    Given a scripted provider "greedy" with the script:
      """
      {"serve": [
        {"id": "frm_g1", "score": 0.9, "content": "Retry policy: the client backs off exponentially, doubling each wait."},
        {"id": "frm_g2", "score": 0.8, "content": "Jitter: every wait is randomised by up to half its length to spread load."},
        {"id": "frm_g3", "score": 0.7, "content": "Ceiling: no single wait exceeds thirty seconds, whatever the attempt count."}
      ]}
      """
    And a scripted provider "modest" with the script:
      """
      {"serve": [{"id": "frm_m1", "score": 0.6, "content": "Budgets: a caller may cap the total time spent retrying one request."}]}
      """
    And the host under test has connected "greedy"
    And the host under test has connected "modest"
    When the host under test fans out a query for at most 8 frames and 40 tokens
    And the host under test composes the answers within 2000 budget tokens
    Then "greedy" is dropped whole with a loud report of its declared and allowed tokens (B2)

  @S7.2-budget-token
  Scenario: A model-token budget is mapped into budget tokens through a safety factor
    Given a scripted provider "docs" with the script:
      """
      {"serve": [
        {"id": "frm_1", "score": 1.0, "content": "Retry policy: note 1 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its co."},
        {"id": "frm_2", "score": 0.9, "content": "Jitter: note 2 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is ."},
        {"id": "frm_3", "score": 0.8, "content": "Ceiling: note 3 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is."},
        {"id": "frm_4", "score": 0.7, "content": "Budgets: note 4 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is."},
        {"id": "frm_5", "score": 0.6, "content": "Idempotency: note 5 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cos."},
        {"id": "frm_6", "score": 0.5, "content": "Logging: note 6 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is."},
        {"id": "frm_7", "score": 0.4, "content": "Metrics: note 7 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is."},
        {"id": "frm_8", "score": 0.3, "content": "Deadlines: note 8 on how the client retries a failed call. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost is exactly one hundred budget tokens, content only. It is kept deliberately long so that its cost ."}
      ]}
      """
    And the host under test has connected "docs"
    When the host under test fans out a query for at most 8 frames and 2000 tokens
    And the host under test composes the answers for a model budget of 400 model tokens
    Then the prompt stays within the model budget through a safety factor (S7.2-budget-token)
