# FMUs with one defect each, for what `simverify validate` must catch (EXTERNAL-SYSTEMS.md):
#   NotAZip.fmu           text, not a zip archive
#   NoDescription.fmu     a zip without modelDescription.xml
#   Fmi1.fmu              modelDescription.xml of FMI 1.0
#   WindowsOnly.fmu       binaries for win64 only
#   NotElf.fmu            binaries/linux64/VanDerPol.so that is not a shared library
#   NanIndex.fmu          a ModelStructure/Derivatives <Unknown index="nan"/>
#   NanStopTime.fmu       <DefaultExperiment stopTime="nan">
#   TinyStep.fmu          <DefaultExperiment stepSize="1e-300"> (a co-simulation of 1e20 steps)
#   CoSimulationOnly.fmu  a working FMI 2.0 FMU without model exchange (written last: the
#                         build's output)
#   cmake -DWORK=.. -DOUT=.. -DVAN_DER_POL_2=<.so> -DDESCRIBE=<describe_van_der_pol>
#         -DMAKE_FMU=<make_fmu.cmake> -P make_broken_fmus.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK} ${OUT})

function(zip_folder name)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSTAGING=${WORK}/${name} -DOUTPUT=${OUT}/${name}.fmu
                          -P ${MAKE_FMU}
                  WORKING_DIRECTORY ${WORK}/${name} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "zipping ${name} failed")
  endif()
endfunction()

file(WRITE ${OUT}/NotAZip.fmu "this is a text file, not a zip archive\n")

file(MAKE_DIRECTORY ${WORK}/NoDescription/binaries/linux64)
file(COPY_FILE ${VAN_DER_POL_2} ${WORK}/NoDescription/binaries/linux64/VanDerPol.so)
zip_folder(NoDescription)

file(MAKE_DIRECTORY ${WORK}/Fmi1)
file(WRITE ${WORK}/Fmi1/modelDescription.xml
  "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"1.0\" modelName=\"Old\" "
  "modelIdentifier=\"Old\" guid=\"{0}\" numberOfContinuousStates=\"0\" "
  "numberOfEventIndicators=\"0\"/>\n")
zip_folder(Fmi1)

file(MAKE_DIRECTORY ${WORK}/WindowsOnly/binaries/win64)
execute_process(COMMAND ${DESCRIBE} 2 ${WORK}/WindowsOnly/modelDescription.xml)
file(WRITE ${WORK}/WindowsOnly/binaries/win64/VanDerPol.dll "MZ: a Windows library\n")
zip_folder(WindowsOnly)

file(MAKE_DIRECTORY ${WORK}/NotElf/binaries/linux64)
execute_process(COMMAND ${DESCRIBE} 2 ${WORK}/NotElf/modelDescription.xml)
file(WRITE ${WORK}/NotElf/binaries/linux64/VanDerPol.so "#!/bin/sh\necho not a library\n")
zip_folder(NotElf)

# VanDerPol (FMI 2.0) with one piece of its modelDescription.xml replaced.
function(van_der_pol_with name from to)
  file(MAKE_DIRECTORY ${WORK}/${name}/binaries/linux64)
  execute_process(COMMAND ${DESCRIBE} 2 ${WORK}/${name}/modelDescription.xml)
  file(READ ${WORK}/${name}/modelDescription.xml description)
  string(FIND "${description}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: '${from}' is not in VanDerPol's modelDescription.xml")
  endif()
  string(REPLACE "${from}" "${to}" description "${description}")
  file(WRITE ${WORK}/${name}/modelDescription.xml "${description}")
  file(COPY_FILE ${VAN_DER_POL_2} ${WORK}/${name}/binaries/linux64/VanDerPol.so)
  zip_folder(${name})
endfunction()
van_der_pol_with(NanIndex "<Unknown index=\"3\"/>" "<Unknown index=\"nan\"/>")
van_der_pol_with(NanStopTime "stopTime=\"20\"" "stopTime=\"nan\"")
van_der_pol_with(TinyStep "stepSize=\"0.01\"" "stepSize=\"1e-300\"")

file(MAKE_DIRECTORY ${WORK}/CoSimulationOnly/binaries/linux64)
execute_process(COMMAND ${DESCRIBE} 2 ${WORK}/CoSimulationOnly/modelDescription.xml cs-only)
file(COPY_FILE ${VAN_DER_POL_2} ${WORK}/CoSimulationOnly/binaries/linux64/VanDerPol.so)
zip_folder(CoSimulationOnly)
