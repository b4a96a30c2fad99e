# Extra wiring for the chart tests (included by tests/CMakeLists.txt).
#
# test_chart_export decodes the PNGs it writes with Cairo to count colours, so it needs Cairo's
# headers when Cairo is in the build (sml_core links Cairo privately).
if(TARGET test_chart_export AND SML_HAVE_CAIRO)
  target_link_libraries(test_chart_export PRIVATE sml::cairo)
endif()

# test_chart_cli runs softmaxlab-cli chart end to end: it needs the CLI built and its path.
if(TARGET test_chart_cli)
  if(TARGET softmaxlab-cli)
    add_dependencies(test_chart_cli softmaxlab-cli)
    target_compile_definitions(test_chart_cli PRIVATE
                               SML_CLI_PATH="$<TARGET_FILE:softmaxlab-cli>")
  else()
    target_compile_definitions(test_chart_cli PRIVATE SML_CLI_PATH="")
  endif()
endif()
