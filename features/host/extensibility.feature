@host
Feature: Surface the host was not built to know: unknown members (U1) and namespaced vendor values (U3)
  A 1.x peer may add optional members anywhere; the host ignores what it does not recognise and never
  rejects the message for it (U1, S13-interop-validator: the interop path follows U1, the authoring-strict
  schema is a lint). A vendor value is namespaced (vendor:name, U3): the host never reads it as the base
  value after its colon — a namespaced error code is unrecognised (internal, never retried) and a
  namespaced egress scope is an unrecognised custom scope (off-machine, needs its own receipt, §4.1).

  @U1 @S13-interop-validator
  Scenario: A handshake_ack with unknown members at every depth is accepted, and the provider queried
    Given a scripted provider "future" with the script:
      """
      { "ack": {
          "x_session": { "resume": true },
          "provider": { "name": "future", "version": "1.5.0", "homepage": "https://future.example.test/",
                        "data_flow": { "reads": true, "writes": false, "egress": false, "retention_days": 0 } },
          "capabilities": { "query": { "kinds": ["doc"], "max_anchors": 16 }, "correlation": false,
                            "streaming": { "chunk_bytes": 4096 } } } }
      """
    When the host under test tries to connect "future"
    And the host under test fans a query out
    Then the host accepted "future" and took its answer, ignoring the members "/x_session, /provider/homepage, /provider/data_flow/retention_days, /capabilities/query/max_anchors, /capabilities/streaming" it does not recognise (U1, S13-interop-validator)

  @U1 @S13-interop-validator
  Scenario: A frames reply with unknown members in its envelope, result, frames and relations is taken as an answer
    Given a scripted provider "newer" with the script:
      """
      { "replyExtra": { "x_trace": { "span": "a1" } },
        "resultExtra": { "cursor": "next-page" },
        "serve": [ { "id": "frm_new", "kind": "doc",
                     "extra": { "freshness": { "crawled": "2026-01-01T00:00:00Z" },
                                "relations": [ { "rel": "code.references", "target_uri": "file:///src/retry.ts",
                                                 "display_name": "retry.ts", "weight": 0.7 } ] } },
                   { "id": "frm_old", "kind": "doc" } ] }
      """
    And the host under test has connected "newer"
    When the host under test fans a query out
    Then the host accepted "newer" and took its answer, ignoring the members "/x_trace, /result/cursor, /result/frames/0/freshness, /result/frames/0/relations/0/weight" it does not recognise (U1, S13-interop-validator)

  @U1 @S13-interop-validator
  Scenario: An error reply with unknown members is read by its code like any other
    Given a scripted provider "chatty-errors" with the script:
      """
      { "errorCode": "unsupported_kind", "replyExtra": { "retry_after_ms": 0, "detail": { "served": ["doc"] } } }
      """
    And the host under test has connected "chatty-errors"
    When the host under test fans a query out
    Then the host reported the error of "chatty-errors" by its code, ignoring the members "/retry_after_ms, /detail" it does not recognise (U1, S13-interop-validator)

  @U3
  Scenario: A namespaced error code is never read as the base code after its colon
    Given a scripted provider "vendor-busy" with the script:
      """
      { "errorCode": "acme:unavailable" }
      """
    And the host under test has connected "vendor-busy"
    When the host under test fans a query out
    Then the host reported the error of "vendor-busy" under its namespaced code, not as the base code after the colon (U3)

  @U3
  Scenario: A namespaced egress scope is never read as the base scope after its colon
    Given a scripted provider "mirror" that declares egress to scopes "org-tenant, acme:local-only"
    And the host under test has connected "mirror"
    And "alice" consents to the egress of "mirror" for scope "org-tenant" only
    When the host under test fans a query out
    Then "mirror" was not queried: its namespaced scope "acme:local-only" is not the base scope after the colon (U3)
