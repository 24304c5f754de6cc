# The bad-input matrix of docs/RELIABILITY.md: every kind of bad input, bad option value and failed
# write, each with the one-line message and exit code the command must give. Included from
# CMakeLists.txt (uses cli, scratch, unwritable and cli_error_test from there).

# cli_write_failure_test(<name> <disk-full|read-only> <dir> <pattern> <arg>...): `myriad <arg>...`
# (with @DIR@ standing for the output folder) must fail with status 1 or 2 and a line matching
# <pattern>, and leave no partial or temporary file in the folder (expect_write_failure.sh).
function(cli_write_failure_test name mode dir pattern)
  add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/expect_write_failure.sh ${mode} ${dir}
    "${pattern}" ${cli} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS cli TIMEOUT 300)
endfunction()

# (A RANGE regex must keep its square brackets balanced, or CMake's list splitting swallows the
# arguments after it: write "(0, 1]" as ".0, 1.".)
# cli_option_limits(<name> OPTION <opt> RANGE <regex> PAST <value>... AT <value>... STOP <regex>
#                   COMMAND <arg>...):
# `myriad <arg>... <opt> <value>` must be refused for every PAST value with a line matching
# "<regex>" (the valid range) and naming the option; for every AT value (the limits themselves) the
# option check must pass: the arguments then carry a bad output path, checked after the options, and
# the message must match STOP (the output option), so no build step starts in either case.
function(cli_option_limits name)
  cmake_parse_arguments(ARG "" "OPTION;RANGE;STOP" "PAST;AT;COMMAND" ${ARGN})
  foreach(value ${ARG_PAST})
    cli_error_test(cli.limits.${name}_past_${value} "${ARG_RANGE}" ${ARG_COMMAND} ${ARG_OPTION} ${value})
  endforeach()
  foreach(value ${ARG_AT})
    cli_error_test(cli.limits.${name}_at_${value} "${ARG_STOP}" ${ARG_COMMAND} ${ARG_OPTION} ${value})
  endforeach()
endfunction()

set(a_file ${CMAKE_CURRENT_LIST_FILE})
set(file_as_folder "is a file, not a folder \\[--out\\]")

# --- bench ---------------------------------------------------------------------------------------
cli_option_limits(bench_repetitions OPTION --repetitions RANGE "must be in \\[1, 1000\\] \\[--repetitions\\]"
  PAST 0 1001 -1 AT 1 1000 STOP "\\[--json\\]" COMMAND bench core --quick --json ${unwritable}/b.json)
file(WRITE ${scratch}/empty_anchors.json "")
file(WRITE ${scratch}/array_anchors.json "[1, 2, 3]\n")
cli_error_test(cli.bench_empty_anchors "empty_anchors\\.json" bench core --quick --anchors ${scratch}/empty_anchors.json)
cli_error_test(cli.bench_wrong_shape_anchors "array_anchors\\.json" bench core --quick
  --anchors ${scratch}/array_anchors.json)
cli_error_test(cli.bench_folder_anchors "not a regular file \\[${CMAKE_CURRENT_BINARY_DIR}\\]" bench core --quick
  --anchors ${CMAKE_CURRENT_BINARY_DIR})
cli_write_failure_test(cli.write.bench_json_disk_full disk-full ${scratch}/full_bench
  "cannot write file: File too large \\[.*full_bench/b\\.json\\]" bench core --quick --repetitions 1
  --no-anchors --json @DIR@/b.json)
cli_write_failure_test(cli.write.bench_chart_disk_full disk-full ${scratch}/full_chart
  "cannot write file: File too large \\[.*full_chart/b\\.png\\]" bench core --quick --repetitions 1
  --no-anchors --chart @DIR@/b.png)
cli_write_failure_test(cli.write.bench_json_read_only read-only ${scratch}/ro_bench
  "cannot write in folder '.*': .* \\[--json\\]" bench core --quick --repetitions 1 --no-anchors --json @DIR@/b.json)

# --- render and view (option checks run before Vulkan starts) -----------------------------------
cli_option_limits(render_width OPTION --width RANGE "between 1 and 16384 pixels per side \\[--width/--height\\]"
  PAST 0 16385 AT 1 16384 STOP ${file_as_folder} COMMAND render --scene smoke --out ${a_file})
cli_error_test(cli.limits.render_width_negative "--width: .*must not be negative" render --width -1)
cli_error_test(cli.limits.render_seed_negative "--seed: .*must not be negative" render --seed -1)
cli_error_test(cli.render_unknown_view "scene 'voxel' has no camera preset 'nowhere' \\[--view\\] .* use overview, ground, sliced"
  render --scene voxel --view nowhere)
cli_error_test(cli.render_out_is_a_file ${file_as_folder} render --scene smoke --out ${a_file})
cli_error_test(cli.render_unknown_scene "--scene: .*nonesuch" render --scene nonesuch)
if(TARGET myriad_crowd)
  cli_option_limits(render_entities OPTION --entities RANGE "--entities: Value .* not in range 1 to 1000000"
    PAST 0 1000001 AT 1 1000000 STOP ${file_as_folder} COMMAND render --scene crowd --out ${a_file})
  cli_error_test(cli.render_crowd_unknown_view "scene 'crowd' has no camera preset 'overview' \\[--view\\]"
    render --scene crowd --view overview)
endif()
if(TARGET myriad_voxel AND TARGET myriad_vegetation AND TARGET myriad_batch AND TARGET myriad_crowd)
  cli_option_limits(render_avatars OPTION --avatars RANGE "--avatars: Value .* not in range 0 to 10000"
    PAST 10001 AT 0 10000 STOP ${file_as_folder} COMMAND render --out ${a_file})
  cli_option_limits(render_shadow_map OPTION --shadow-map RANGE "--shadow-map: Value .* not in range 0 to 8192"
    PAST 8193 AT 0 8192 STOP ${file_as_folder} COMMAND render --out ${a_file})
  cli_option_limits(render_vegetation_size OPTION --vegetation-size
    RANGE "--vegetation-size: Value .* not in range 512\\.0+ to 16384\\.0+"
    PAST 511 16385 AT 512 16384 STOP ${file_as_folder} COMMAND render --out ${a_file})
  cli_error_test(cli.limits.render_vegetation_size_past_nan "--vegetation-size: must be a finite number"
    render --out ${a_file} --vegetation-size nan)
  cli_error_test(cli.render_cache_is_a_file "is a file, not a folder \\[--cache\\]" render --cache ${a_file})
endif()
if(TARGET myriad_view)
  set(view_stop "is a folder \\[--screenshot\\]")
  cli_option_limits(view_width OPTION --width RANGE "--width: Value .* not in range 64 to 16384"
    PAST 63 16385 AT 64 16384 STOP ${view_stop} COMMAND view --screenshot ${CMAKE_CURRENT_BINARY_DIR})
  cli_option_limits(view_speed OPTION --speed RANGE "--speed: Value .* not in range 0\\.50+ to 2000\\.0+"
    PAST 0.49 2001 AT 0.5 2000 STOP ${view_stop} COMMAND view --screenshot ${CMAKE_CURRENT_BINARY_DIR})
  cli_error_test(cli.limits.view_speed_past_nan "--speed: must be a finite number" view --speed nan)
  cli_error_test(cli.limits.view_vegetation_size_past_inf "--vegetation-size: must be a finite number"
    view --vegetation-size inf)
  cli_error_test(cli.limits.view_frames_negative "--frames: .*must not be negative" view --frames -1)
  cli_error_test(cli.view_unknown_view "unknown view 'nowhere' \\[--view\\]" view --view nowhere)
  cli_error_test(cli.view_screenshot_unwritable "cannot create folder .*Not a directory \\[--screenshot\\]"
    view --screenshot ${unwritable}/shot.png)
  cli_error_test(cli.view_cache_is_a_file "is a file, not a folder \\[--cache\\]" view --cache ${a_file})
endif()

# --- vegetation ----------------------------------------------------------------------------------
if(TARGET myriad_vegetation)
  cli_option_limits(veg_bake_tile_size OPTION --tile-size RANGE "tile size must be in \\[1, 100000\\] metres \\[--tile-size\\]"
    PAST 0.999 100001 nan AT 1 100000 STOP ${file_as_folder} COMMAND veg bake --out ${a_file})
  cli_option_limits(veg_bake_world_size OPTION --world-size RANGE "world size must be in .0, 100000. metres \\[--world-size\\]"
    PAST 0 -1 100001 inf AT 1e-30 100000 STOP ${file_as_folder} COMMAND veg bake --out ${a_file})
  cli_option_limits(veg_bake_leaf OPTION --leaf RANGE "leaf capacity must be in \\[1, 65536\\] \\[--leaf\\]"
    PAST 0 65537 AT 1 65536 STOP ${file_as_folder} COMMAND veg bake --out ${a_file})
  cli_option_limits(veg_bake_extent OPTION --extent RANGE "\\[--extent\\]"
    PAST 0,0,100001,5 -1000001,0,0,5 0,0,0,5 AT 0,0,100000,100000 -1000000,-1000000,-900000,-900000
    STOP ${file_as_folder} COMMAND veg bake --out ${a_file})
  cli_error_test(cli.limits.veg_bake_merge_below_negative "--merge-below: .*must not be negative"
    veg bake --out ${scratch}/veg_bad --merge-below -1)
  cli_option_limits(veg_render_width OPTION --width RANGE "image size must be in \\[1, 16384\\] pixels \\[--width/--height\\]"
    PAST 0 16385 AT 1 16384 STOP ${file_as_folder} COMMAND veg render --out ${a_file})
  cli_option_limits(veg_render_size OPTION --size RANGE "field size must be in \\[100, 4000\\] m \\[--size\\]"
    PAST 99.9 4001 inf AT 100 4000 STOP ${file_as_folder} COMMAND veg render --out ${a_file})

  # Instance lists (CSV).
  file(WRITE ${scratch}/nan.csv "tree,nan,0,0,0,1,1,1,1\n")
  file(WRITE ${scratch}/unknown_type.csv "palm,0,0,0,0,1,1,1,1\n")
  file(WRITE ${scratch}/zero_scale.csv "tree,0,0,0,0,0,1,1,1\n")
  file(WRITE ${scratch}/empty.csv "")
  cli_error_test(cli.veg_bake_nan_csv "nan\\.csv:1" veg bake --out ${scratch}/veg_bad --csv ${scratch}/nan.csv)
  cli_error_test(cli.veg_bake_unknown_type_csv "unknown plant type 'palm' \\[.*unknown_type\\.csv:1\\] .* use a type name \\(tree, bush, grass\\)"
    veg bake --out ${scratch}/veg_bad --csv ${scratch}/unknown_type.csv)
  cli_error_test(cli.veg_bake_zero_scale_csv "scale must be in \\(0, 60000\\] \\[.*zero_scale\\.csv:1\\]"
    veg bake --out ${scratch}/veg_bad --csv ${scratch}/zero_scale.csv)
  cli_error_test(cli.veg_bake_empty_csv "the instance list holds no plants \\[.*empty\\.csv\\]" veg bake --out ${scratch}/veg_bad --csv ${scratch}/empty.csv)
  cli_error_test(cli.veg_bake_folder_csv "not a regular file \\[${CMAKE_CURRENT_BINARY_DIR}\\]"
    veg bake --out ${scratch}/veg_bad --csv ${CMAKE_CURRENT_BINARY_DIR})

  # Tile files: wrong magic and an absurd count (the header's prefab count) next to the corrupt
  # copies CMakeLists.txt tests.
  cli_error_test(cli.veg_info_magic "not a vegetation tile .*corrupt/magic\\.mveg" veg info ${scratch}/corrupt/magic.mveg)
  cli_error_test(cli.veg_info_count "prefab count exceeds the file size .*corrupt/count\\.mveg"
    veg info ${scratch}/corrupt/count.mveg)
  set_tests_properties(cli.veg_info_magic cli.veg_info_count PROPERTIES FIXTURES_REQUIRED corrupt_mveg)

  cli_write_failure_test(cli.write.veg_bake_disk_full disk-full ${scratch}/full_veg
    "cannot write file: File too large \\[.*full_veg/tile_.*\\.mveg\\]" veg bake --out @DIR@ --world-size 600)
  cli_write_failure_test(cli.write.veg_bake_read_only read-only ${scratch}/ro_veg
    "cannot write in folder '.*': .* \\[--out\\]" veg bake --out @DIR@ --world-size 600)
endif()

# --- crowd ---------------------------------------------------------------------------------------
if(TARGET myriad_crowd)
  set(crowd_stop "cannot create folder .*\\[--out\\]")
  set(crowd_cmd crowd bake enemy -o ${unwritable}/x.crowd)
  # The issue's case: 14 passed the command's own check and failed after four bake stages.
  cli_option_limits(crowd_bake_lod2_triangles OPTION --lod2-triangles
    RANGE "LOD2 triangle target must be in \\[16, 99760\\] \\[--lod2-triangles\\]"
    PAST 14 15 99761 -1 AT 16 99760 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_fps OPTION --fps RANGE "frame rate must be in .0, 240. \\[--fps\\]"
    PAST 0 240.01 -1 nan inf AT 1e-30 240 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_weld_angle OPTION --weld-angle RANGE "weld angle must be in \\[0, 180\\] \\[--weld-angle\\]"
    PAST -0.01 180.01 nan AT 0 180 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_lod1_ratio OPTION --lod1-ratio RANGE "LOD1 ratio must be in .0, 1. \\[--lod1-ratio\\]"
    PAST 0 1.01 nan AT 0.01 1 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_hole_limit OPTION --hole-limit RANGE "hole limit must be a fraction in .0, 1. \\[--hole-limit\\]"
    PAST 0 -0.01 1.01 AT 1e-6 1 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_loss_limit OPTION --loss-limit RANGE "loss limit must be a fraction in .0, 1. \\[--loss-limit\\]"
    PAST 0 -0.01 1.01 AT 1e-6 1 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  cli_option_limits(crowd_bake_silhouette_limit OPTION --silhouette-limit
    RANGE "silhouette limit must be a fraction in .0, 1. \\[--silhouette-limit\\]"
    PAST 0 -0.01 1.01 nan AT 1e-6 1 STOP ${crowd_stop} COMMAND ${crowd_cmd})
  # At the lower LOD2 limit the whole bake runs to the end: it writes its file, or (16 triangles plus the
  # retries' steps may be too few once the check looks at moving frames) names the LOD, view and frame
  # that failed.
  add_test(NAME cli.limits.crowd_bake_lod2_triangles_bakes_at_16 COMMAND ${cli} crowd bake enemy --no-sheets
    --lod2-triangles 16 -o ${scratch}/crowd_lod2_16/enemy.crowd)
  set_tests_properties(cli.limits.crowd_bake_lod2_triangles_bakes_at_16 PROPERTIES LABELS cli TIMEOUT 300
    PASS_REGULAR_EXPRESSION "wrote .*enemy\\.crowd|LOD2 failed the hole check: .* from view [0-9]+ \\(direction .*(bind pose|frame [1-3] of 3)\\)")

  # Models: a valid one-triangle model and its broken variants (make_bad_models.sh).
  set(models ${scratch}/models)
  add_test(NAME cli.crowd_bad_models COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/make_bad_models.sh ${models})
  set_tests_properties(cli.crowd_bad_models PROPERTIES LABELS cli FIXTURES_SETUP bad_models)
  # The hole and loss limits at 1 let the valid one-triangle model bake: a variant that is not
  # refused would bake too, and fail its test.
  set(lenient --no-sheets --hole-limit 1 --loss-limit 1)
  foreach(kind gltf glb)
    add_test(NAME cli.crowd_bake_model_valid_${kind} COMMAND ${cli} crowd bake ${models}/model.${kind}
      -o ${scratch}/good_model_${kind}.crowd ${lenient})
    set_tests_properties(cli.crowd_bake_model_valid_${kind} PROPERTIES LABELS cli FIXTURES_REQUIRED bad_models
      PASS_REGULAR_EXPRESSION "wrote .*good_model_${kind}\\.crowd")
  endforeach()
  # Each message must be the whole error on one line (no continuation line from the parser).
  function(crowd_model_error file pattern)
    string(REGEX REPLACE "\\.(gltf|glb)$" "_\\1" kind "${file}")
    cli_error_test(cli.crowd_bake_model_${kind} "^myriad: error: ${pattern}"
      crowd bake ${models}/${file} -o ${scratch}/bad_model.crowd ${lenient})
    set_tests_properties(cli.crowd_bake_model_${kind} PROPERTIES FIXTURES_REQUIRED bad_models)
  endfunction()
  set(m "\\[${models}")
  set(valid "\\] .* is it a valid glTF 2\\.0 file\\?$")
  crowd_model_error(nan_position.gltf "vertex 1 has a non-finite position \\[nan_position\\.gltf: meshes\\[0\\] 'body'\\]$")
  crowd_model_error(joint_out_of_range.gltf
    "joint index 7 outside the skin ${m}/joint_out_of_range\\.gltf: meshes\\[0\\]\\.primitives\\[0\\]\\.attributes\\.JOINTS_0\\]$")
  crowd_model_error(huge_weights.gltf
    "vertex 0 has a negative weight or weights whose sum is not finite ${m}/huge_weights\\.gltf: .*WEIGHTS_0\\]")
  crowd_model_error(accessor_past_buffer.gltf
    "accessor reads past the end of its buffer ${m}/accessor_past_buffer\\.gltf: .*POSITION \\(accessors\\[0\\]\\)\\]")
  crowd_model_error(absurd_count.gltf
    "accessor reads past the end of its buffer ${m}/absurd_count\\.gltf: .*POSITION \\(accessors\\[0\\]\\)\\]")
  crowd_model_error(absurd_joints.gltf "skin has too many joints ${m}/absurd_joints\\.gltf: skins\\[0\\]\\.joints\\]$")
  crowd_model_error(missing_buffers.gltf "glTF parse failed: File not found : no_such_1\\.bin ${m}/missing_buffers\\.gltf${valid}")
  crowd_model_error(folder_buffer.gltf
    "glTF parse failed: File read error : .*folder\\.glb : not a regular file: .*folder\\.glb ${m}/folder_buffer\\.gltf${valid}")
  crowd_model_error(two_errors.gltf "glTF parse failed: 'inverseBindMatrices' property is missing in Skin\\.; Perspective camera description not found\\. ${m}/two_errors\\.gltf${valid}")
  crowd_model_error(short_buffer.gltf
    "glTF parse failed: File size mismatch : .*short\\.bin, requestedBytes 180, but got 100 ${m}/short_buffer\\.gltf${valid}")
  crowd_model_error(not_gltf.gltf
    "glTF parse failed: \"asset\" object not found in \\.gltf or not an object type ${m}/not_gltf\\.gltf${valid}")
  crowd_model_error(empty.gltf "glTF parse failed: JSON string too short\\. ${m}/empty\\.gltf${valid}")
  crowd_model_error(empty.glb "glTF parse failed: Too short data size for glTF Binary\\. ${m}/empty\\.glb${valid}")
  crowd_model_error(garbage.glb "glTF parse failed: Invalid magic\\. ${m}/garbage\\.glb${valid}")
  crowd_model_error(wrong_magic.glb "glTF parse failed: Invalid magic\\. ${m}/wrong_magic\\.glb${valid}")
  crowd_model_error(truncated.glb "glTF parse failed: Invalid glTF binary\\. ${m}/truncated\\.glb${valid}")
  crowd_model_error(flipped.glb
    "glTF parse failed: \\[json\\.exception\\.parse_error\\.101\\] parse error at line 1, column 1: .*'z' ${m}/flipped\\.glb${valid}")
  crowd_model_error(folder.glb "'.*/folder\\.glb' is a folder \\[input model\\]")

  # Crowd files: wrong magic and an absurd payload size, next to the corrupt copies of CMakeLists.txt.
  cli_error_test(cli.crowd_info_magic "not a crowd file .*corrupt/magic\\.crowd" crowd info ${scratch}/corrupt/magic.crowd)
  cli_error_test(cli.crowd_info_count "payload size [0-9]+ does not match .*corrupt/count\\.crowd"
    crowd info ${scratch}/corrupt/count.crowd)
  set_tests_properties(cli.crowd_info_magic cli.crowd_info_count PROPERTIES FIXTURES_REQUIRED corrupt_crowd)
  cli_error_test(cli.render_corrupt_crowd_file "${scratch}/corrupt/flipped\\.crowd" render --scene crowd
    --crowd ${scratch}/corrupt/flipped.crowd --out ${scratch}/never)
  set_tests_properties(cli.render_corrupt_crowd_file PROPERTIES FIXTURES_REQUIRED corrupt_crowd)

  cli_write_failure_test(cli.write.crowd_file_disk_full disk-full ${scratch}/full_crowd
    "cannot write file: File too large \\[.*full_crowd/enemy\\.crowd\\]" crowd bake enemy --no-sheets -o @DIR@/enemy.crowd)
  cli_write_failure_test(cli.write.crowd_sheet_disk_full disk-full ${scratch}/full_sheet
    "cannot write file: File too large \\[.*full_sheet/enemy_lod1\\.png\\]" crowd bake enemy -o @DIR@/enemy.crowd)
  cli_write_failure_test(cli.write.crowd_file_read_only read-only ${scratch}/ro_crowd
    "cannot write in folder '.*': .* \\[--out\\]" crowd bake enemy -o @DIR@/enemy.crowd)
endif()

# --- render: the PNG and stats writers (GPU: the small smoke scene) ------------------------------
cli_write_failure_test(cli.write.render_png_disk_full disk-full ${scratch}/full_render
  "cannot write file: File too large \\[.*full_render/smoke\\.png\\]" render --scene smoke --width 320 --height 180
  --out @DIR@)
set_tests_properties(cli.write.render_png_disk_full PROPERTIES LABELS "cli;gpu")
