# The lessons' claims are checked against the recorded H100 session. Until one is committed in
# assets/sessions/, the suite skips with a printed reason; report that to ctest as "Skipped"
# (not "Passed"), so an unchecked claim is never mistaken for a checked one.
if(TEST test_lessons_claims)
  set_tests_properties(test_lessons_claims PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endif()
