@host
Feature: Consent gates every payload that would leave the machine (C1, C2, C6)
  The host records explicit, named, revocable consent, and checks it before a query payload is sent
  to a provider whose data flow is egress. The scripted provider records every line it receives, so
  "the payload never left" is observed on the wire.

  @C1 @C2
  Scenario: An egress provider without a recorded consent never receives the query
    Given a scripted provider "remote-index" that declares egress to scope "third-party-index"
    And the host under test has connected "remote-index"
    When the host under test fans a query out
    Then "remote-index" received no query and the host reported the refusal (C1, C2)

  @C1 @C2
  Scenario: Once the user consents, the same provider receives the query
    Given a scripted provider "remote-index" that declares egress to scope "third-party-index"
    And the host under test has connected "remote-index"
    And "alice" consents to the egress of "remote-index"
    When the host under test fans a query out
    Then "remote-index" received the query and answered (C1)

  @C2 @needs-revoke
  Scenario: A revoked consent stops the next payload
    Given a scripted provider "remote-index" that declares egress to scope "third-party-index"
    And the host under test has connected "remote-index"
    And "alice" consents to the egress of "remote-index"
    And "alice" revokes the consent for "remote-index"
    When the host under test fans a query out
    Then "remote-index" received no query and the host reported the refusal (C2)

  @C6
  Scenario: Every off-machine scope needs its own receipt
    Given a scripted provider "crawler" that declares egress to scopes "third-party-index, third-party-model"
    And the host under test has connected "crawler"
    And "alice" consents to the egress of "crawler" for scope "third-party-index" only
    When the host under test fans a query out
    Then "crawler" received no query and the host reported the refusal (C6)
    And the refusal for "crawler" names the scope "third-party-model"

  @C6 @S4.1-unknown-scope-off-machine
  Scenario: An unrecognised custom scope is off-machine: it needs a receipt of its own
    Given a scripted provider "mirror" that declares egress to scopes "org-tenant, acme:mirror"
    And the host under test has connected "mirror"
    And "alice" consents to the egress of "mirror" for scope "org-tenant" only
    When the host under test fans a query out
    Then "mirror" received no query and the host reported the refusal (C6)
    And the refusal for "mirror" names the scope "acme:mirror"

  @C6 @S4.1-unknown-scope-off-machine
  Scenario: With a receipt for the custom scope too, the query goes out
    Given a scripted provider "mirror" that declares egress to scopes "org-tenant, acme:mirror"
    And the host under test has connected "mirror"
    And "alice" consents to the egress of "mirror" for scopes "org-tenant, acme:mirror" only
    When the host under test fans a query out
    Then "mirror" received the query and answered (C6)
