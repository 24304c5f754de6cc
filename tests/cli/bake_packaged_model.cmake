# Bakes a skinned model that nobody on the project made, taken from a Debian package, and requires a
# usable result: the model is converted to .glb by assimp (as a user of another exporter would), baked
# with --strict (so a level outside the hole-check limits fails), and `crowd info` must report
# - every lower level within the limits,
# - no level with more vertices than the level above it,
# - LOD0 with no more vertices than the original model.
# Usage: cmake -DCLI=<myriad> -DSRC=<model in any assimp format> -DOUT=<folder> -P bake_packaged_model.cmake
if(NOT EXISTS "${SRC}")
  message(FATAL_ERROR "${SRC} is missing: scripts/setup installs the package that holds it")
endif()
find_program(ASSIMP assimp)
if(NOT ASSIMP)
  message(FATAL_ERROR "assimp is missing: scripts/setup installs assimp-utils")
endif()
get_filename_component(name "${SRC}" NAME_WE)
file(MAKE_DIRECTORY ${OUT})
set(glb ${OUT}/${name}.glb)
execute_process(COMMAND ${ASSIMP} export ${SRC} ${glb} -fglb2 RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${glb})
  message(FATAL_ERROR "assimp could not convert ${SRC}: ${err}")
endif()

execute_process(COMMAND ${CLI} crowd bake ${glb} -o ${OUT}/${name}.crowd --strict --no-sheets
  RESULT_VARIABLE rc OUTPUT_VARIABLE bake ERROR_VARIABLE bake_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "crowd bake --strict of ${name} failed (${rc}):\n${bake}\n${bake_err}")
endif()
if(NOT bake MATCHES "original +([0-9]+) vertices")
  message(FATAL_ERROR "the bake report names no original vertex count:\n${bake}")
endif()
set(original ${CMAKE_MATCH_1})

execute_process(COMMAND ${CLI} crowd info ${OUT}/${name}.crowd RESULT_VARIABLE rc OUTPUT_VARIABLE info)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "crowd info of ${name} failed:\n${info}")
endif()
set(above ${original})
set(above_name "the original")
foreach(level 0 1 2)
  if(NOT info MATCHES "LOD${level}: ([0-9]+) vertices, ([0-9]+) triangles[^\n]*made by ([^;\n(]+)([^\n]*)")
    message(FATAL_ERROR "crowd info lists no LOD${level}:\n${info}")
  endif()
  set(vertices ${CMAKE_MATCH_1})
  set(rest "${CMAKE_MATCH_4}")
  if(vertices GREATER above)
    message(FATAL_ERROR "${name}: LOD${level} has ${vertices} vertices, more than ${above_name} (${above})")
  endif()
  if(level GREATER 0 AND NOT rest MATCHES "\\(within the limits\\)")
    message(FATAL_ERROR "${name}: LOD${level} is not within the hole-check limits:\n${info}")
  endif()
  message(STATUS "${name}: LOD${level} ${vertices} vertices, made by ${CMAKE_MATCH_3}")
  set(above ${vertices})
  set(above_name "LOD${level}")
endforeach()
