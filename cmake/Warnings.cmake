# simverify_set_warnings(<target>): the project's warning policy, one place for all targets.
function(simverify_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(SIMVERIFY_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
