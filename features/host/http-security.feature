@host
Feature: The HTTP transport knows where the bytes go (C4, C7, C8)
  The scripted provider is served over HTTP on 127.0.0.1 only, and the host is given a non-loopback name
  for it (provider.example.test) that only the suite's injected lookup resolves, to 127.0.0.1. The server
  records every request it receives — body, headers, TLS or not — so what left the host is observed on
  the wire, not taken from the host's own bookkeeping.

  @C4 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A non-loopback provider that claims egress:false is consent-gated all the same
    Given a scripted provider "far-docs" with the script:
      """
      {"egress": false}
      """
    And the host under test has connected "far-docs" over HTTPS at a non-loopback name
    When the host under test fans a query out
    Then "far-docs", reached at a non-loopback name, received no query and the host reported the refusal (C4)

  @C4 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: Once the user consents, the non-loopback provider receives the query over TLS
    Given a scripted provider "far-docs" with the script:
      """
      {"egress": false}
      """
    And the host under test has connected "far-docs" over HTTPS at a non-loopback name
    And "alice" consents to the egress of "far-docs"
    When the host under test fans a query out
    Then "far-docs" received the query and answered (C4)

  @C7 @needs-http
  Scenario: Plaintext http:// to a non-loopback provider is refused before any byte leaves
    Given a scripted provider "plain-docs" with the script:
      """
      {"egress": false}
      """
    When the host under test tries to connect "plain-docs" over plaintext HTTP at a non-loopback name with a bearer credential
    Then the connection to "plain-docs" was refused before any byte left in plaintext (C7)

  @C8 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A query that fails with HTTP 500 quoting the Authorization header leaks no credential
    Given a scripted provider "keyed-docs" with the script:
      """
      {"httpStatus": {"query": 500}, "echoAuthorization": true}
      """
    And the host under test has connected "keyed-docs" over HTTPS at a non-loopback name with a bearer credential
    And "alice" consents to the egress of "keyed-docs"
    When the host under test fans a query out
    Then the host sent the bearer credential to "keyed-docs", and it appears in no log line or surfaced error (C8)

  @C8 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A provider error envelope quoting the Authorization header leaks no credential
    Given a scripted provider "keyed-docs" with the script:
      """
      {"errorEnvelope": {"type": "error", "code": "bad_request", "message": "rejected"}, "echoAuthorization": true}
      """
    And the host under test has connected "keyed-docs" over HTTPS at a non-loopback name with a bearer credential
    And "alice" consents to the egress of "keyed-docs"
    When the host under test fans a query out
    Then the host sent the bearer credential to "keyed-docs", and it appears in no log line or surfaced error (C8)

  @C8 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A handshake refused with HTTP 401 quoting the Authorization header leaks no credential
    Given a scripted provider "keyed-docs" with the script:
      """
      {"httpStatus": {"handshake": 401}, "echoAuthorization": true}
      """
    When the host under test tries to connect "keyed-docs" over HTTPS at a non-loopback name with a bearer credential
    Then the host sent the bearer credential to "keyed-docs", and it appears in no log line or surfaced error (C8)

  @C8 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A provider that stops listening mid-session leaks no credential in the connection failure
    Given a scripted provider "keyed-docs" with the script:
      """
      {"egress": false}
      """
    And the host under test has connected "keyed-docs" over HTTPS at a non-loopback name with a bearer credential
    And "alice" consents to the egress of "keyed-docs"
    And "keyed-docs" stops listening
    When the host under test fans a query out
    Then the host sent the bearer credential to "keyed-docs", and it appears in no log line or surfaced error (C8)

  @S4.2-bearer-credential @C8 @needs-http @needs-name-resolution-hook @needs-https-test-ca
  Scenario: A provider that requires a bearer credential serves the host that presents it, and the credential stays secret
    Given a scripted provider "locked-docs" with the script:
      """
      {"requireBearer": true}
      """
    And the host under test has connected "locked-docs" over HTTPS at a non-loopback name with a bearer credential
    And "alice" consents to the egress of "locked-docs"
    When the host under test fans a query out
    Then "locked-docs" received the query and answered (S4.2-bearer-credential)
    And the host sent the bearer credential to "locked-docs", and it appears in no log line or surfaced error (C8)
