# Installation and the CMake package: `cmake --install build --prefix P` puts the public headers in
# P/include/myriad/<module>/, the static libraries in P/lib, the `myriad` tool in P/bin and the package
# in P/lib/cmake/Myriad, so that
#   find_package(Myriad 0.1 CONFIG REQUIRED COMPONENTS voxel)
#   target_link_libraries(app PRIVATE Myriad::voxel)
# works from any project. Included once at the end of the top-level CMakeLists.txt, after every module.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MYRIAD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Myriad)

# The version header (the version itself lives only in project() at the top).
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.hpp.in ${PROJECT_BINARY_DIR}/include/generated/myriad/version.hpp
               @ONLY)
target_include_directories(myriad_core PUBLIC $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include/generated>)
install(FILES ${PROJECT_BINARY_DIR}/include/generated/myriad/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/myriad)

# Third-party packages each module's consumers need (its own and, for static libraries, its private ones).
set(MYRIAD_PACKAGES_core "glm CONFIG" "TBB CONFIG")
set(MYRIAD_PACKAGES_gltf "TinyGLTF CONFIG" "nlohmann_json CONFIG")
set(MYRIAD_PACKAGES_voxel "nlohmann_json CONFIG")
set(MYRIAD_PACKAGES_anim "meshoptimizer CONFIG")
set(MYRIAD_PACKAGES_vegetation "meshoptimizer CONFIG" "nlohmann_json CONFIG")
set(MYRIAD_PACKAGES_crowd_bake "meshoptimizer CONFIG" "embree 3 CONFIG" "OpenVDB")
set(MYRIAD_PACKAGES_gpu "Vulkan")
set(MYRIAD_PACKAGES_view "glfw3 CONFIG")

get_property(modules GLOBAL PROPERTY MYRIAD_MODULES)
set(dependency_table "")
set(internal_list "")
foreach(module ${modules})
  set(target myriad_${module})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${module})
  install(TARGETS ${target} EXPORT MyriadTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

  # Public headers: every .hpp/.h below the module folder except the declared internal ones.
  get_target_property(dir ${target} MYRIAD_SOURCE_DIR)
  get_target_property(internal ${target} MYRIAD_INTERNAL_HEADERS)
  file(GLOB_RECURSE headers RELATIVE ${dir} ${dir}/*.hpp ${dir}/*.h)
  foreach(header ${headers})
    if(internal AND header IN_LIST internal)
      string(APPEND internal_list "${module}/${header}\n")
      continue()
    endif()
    get_filename_component(sub ${header} DIRECTORY)
    install(FILES ${dir}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/myriad/${module}/${sub})
  endforeach()

  # The module's Myriad dependencies (for the component closure) and packages.
  get_target_property(links ${target} LINK_LIBRARIES)
  set(module_deps "")
  foreach(link ${links})
    if(link MATCHES "^myriad_(.+)$" AND CMAKE_MATCH_1 IN_LIST modules)
      list(APPEND module_deps ${CMAKE_MATCH_1})
    endif()
  endforeach()
  string(REPLACE ";" " " module_deps "${module_deps}")
  string(APPEND dependency_table "set(_myriad_deps_${module} ${module_deps})\n")
  set(packages "")
  foreach(package ${MYRIAD_PACKAGES_${module}})
    string(APPEND packages " \"${package}\"")
  endforeach()
  string(APPEND dependency_table "set(_myriad_packages_${module}${packages})\n")
endforeach()
string(REPLACE ";" " " MYRIAD_INSTALLED_MODULES "${modules}")
# The headers kept out of the package (scripts/check-package checks they are not installed).
file(WRITE ${PROJECT_BINARY_DIR}/internal_headers.txt "${internal_list}")
set(MYRIAD_DEPENDENCY_TABLE "${dependency_table}")

# Helper targets the static libraries link privately (exported because static linking needs them).
set_target_properties(myriad_options PROPERTIES EXPORT_NAME detail_options)
set_target_properties(myriad_stb PROPERTIES EXPORT_NAME detail_stb)
set_target_properties(myriad_xxhash PROPERTIES EXPORT_NAME detail_xxhash)
install(TARGETS myriad_options myriad_stb myriad_xxhash EXPORT MyriadTargets)
if(TARGET myriad_render_shaders)
  set_target_properties(myriad_render_shaders PROPERTIES EXPORT_NAME detail_render_shaders)
  install(TARGETS myriad_render_shaders EXPORT MyriadTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET myriad)
  install(TARGETS myriad RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT MyriadTargets NAMESPACE Myriad:: DESTINATION ${MYRIAD_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/MyriadConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/MyriadConfig.cmake INSTALL_DESTINATION ${MYRIAD_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/MyriadConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/MyriadConfig.cmake ${PROJECT_BINARY_DIR}/MyriadConfigVersion.cmake
        DESTINATION ${MYRIAD_CMAKE_DIR})
