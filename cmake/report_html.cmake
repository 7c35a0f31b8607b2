# The HTML report's page template (data/report/), embedded in purist_core
# at build time like the knowledge base: the binary needs no data files.
foreach(_part html css js)
  set(_in ${CMAKE_SOURCE_DIR}/data/report/report.${_part})
  set(_out ${CMAKE_BINARY_DIR}/html_page_${_part}.c)
  add_custom_command(
    OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -DIN=${_in} -DOUT=${_out} -DNAME=html_page_${_part}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${_in} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake)
  target_sources(purist_core PRIVATE ${_out})
endforeach()
