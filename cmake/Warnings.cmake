# simverify_set_warnings(<target>): the project's warning policy, one place for all targets.
function(simverify_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(SIMVERIFY_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
    # GCC 12 with AddressSanitizer (the `asan` preset) warns that libstdc++'s own <regex>
    # internals "may be used uninitialized" (std::function inside _NFA::_M_insert_*; GCC bug
    # 105562 and its kin): instrumentation defeats the flow analysis. Shown, not fatal.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_FLAGS MATCHES "sanitize=[a-z,]*address")
      target_compile_options(${target} PRIVATE -Wno-error=maybe-uninitialized)
    endif()
  endif()
endfunction()
