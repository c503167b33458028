/// The 3D replay's renderer (see `ReplayHTML.script`).
let replayScript = #"""
(function(){"use strict";
window.spatialReplay={seek:function(){},pixel:function(){return null;}};
})();
"""#
