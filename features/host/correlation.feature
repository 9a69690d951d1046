@host
Feature: Replies of a correlation-declaring provider are matched to their requests by id (H4, host half)
  A provider declaring capabilities.correlation is sent an id on every query and may answer pipelined
  queries in any order. The host demultiplexes its replies by id: each request gets the reply carrying its
  own id, and a reply carrying a wrong id, no id, or another request's id is a correlation failure
  (CorrelationMismatch in the reference host), never delivered as the answer to a request. The scripted
  providers echo each query's goal into the frames they serve, so whose answer went where is observable.

  @H4
  Scenario: Replies to pipelined queries that arrive out of order still answer their own queries
    Given a scripted provider "pipelined" with the script:
      """
      { "correlation": true, "concurrent": true, "echoGoal": true }
      """
    And the host under test has connected "pipelined"
    When the host under test fans out the queries "the slow one held=500" and "the fast one delay=0" at once
    Then each query to "pipelined" was answered with the frames of its own goal (H4)

  @H4
  Scenario: A reply carrying a wrong id is a correlation failure, never an answer
    Given a scripted provider "misfiling" with the script:
      """
      { "correlation": true, "idMode": "wrong", "echoGoal": true }
      """
    And the host under test has connected "misfiling"
    When the host under test fans a query out
    Then the host reported a correlation failure for "misfiling" and took none of its replies as an answer (H4)

  @H4
  Scenario: A reply carrying no id from a correlating provider is a correlation failure, never an answer
    Given a scripted provider "forgetful" with the script:
      """
      { "correlation": true, "idMode": "omit", "echoGoal": true }
      """
    And the host under test has connected "forgetful"
    When the host under test fans a query out
    Then the host reported a correlation failure for "forgetful" and took none of its replies as an answer (H4)

  @H4
  Scenario: A reply carrying an earlier request's id is a correlation failure, never the answer to the current one
    Given a scripted provider "stale" with the script:
      """
      { "correlation": true, "idMode": "previous", "echoGoal": true }
      """
    And the host under test has connected "stale"
    When the host under test fans out the queries "the first question" and then "the second question"
    Then the host reported a correlation failure for "stale" and took none of its replies as an answer (H4)
