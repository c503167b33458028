/// The 3D replay's renderer (see `ReplayHTML.script`): plain WebGL 1 drawing into one shared
/// off-screen canvas, copied into each scene's 2D canvas (a page may hold 79 replays; browsers keep
/// only a few WebGL contexts alive). Exposes `window.spatialReplay` for tests.
let replayScript = #"""
(function(){"use strict";
var SEV={3:[192,38,27],2:[224,138,0],1:[28,95,184]};
var BASE={window:[178,192,212],element:[176,186,200],volume:[160,170,184],model:[150,160,172],text:[196,202,210],node:[170,178,190]};
var D2R=Math.PI/180, T2R=Math.PI/1800;
var scenes=[], gl=null, glCanvas=null, prog=null, buf=null;
/* -- matrices (column-major) -- */
function mul(a,b){var o=new Float32Array(16);for(var c=0;c<4;c++)for(var r=0;r<4;r++){var s=0;for(var k=0;k<4;k++)s+=a[k*4+r]*b[c*4+k];o[c*4+r]=s;}return o;}
function persp(fy,asp,n,f){var t=1/Math.tan(fy/2),o=new Float32Array(16);o[0]=t/asp;o[5]=t;o[10]=(f+n)/(n-f);o[11]=-1;o[14]=2*f*n/(n-f);return o;}
function sub(a,b){return[a[0]-b[0],a[1]-b[1],a[2]-b[2]];}
function cross(a,b){return[a[1]*b[2]-a[2]*b[1],a[2]*b[0]-a[0]*b[2],a[0]*b[1]-a[1]*b[0]];}
function norm(a){var l=Math.sqrt(a[0]*a[0]+a[1]*a[1]+a[2]*a[2])||1;return[a[0]/l,a[1]/l,a[2]/l];}
function dot(a,b){return a[0]*b[0]+a[1]*b[1]+a[2]*b[2];}
function lookAt(e,t,u){var z=norm(sub(e,t)),x=norm(cross(u,z)),y=cross(z,x),o=new Float32Array(16);
 o[0]=x[0];o[4]=x[1];o[8]=x[2];o[1]=y[0];o[5]=y[1];o[9]=y[2];o[2]=z[0];o[6]=z[1];o[10]=z[2];
 o[12]=-dot(x,e);o[13]=-dot(y,e);o[14]=-dot(z,e);o[15]=1;return o;}
/* R = Ry(yaw) Rx(pitch) Rz(roll): columns are the images of the local axes. */
function rot(y,p,r){var cy=Math.cos(y),sy=Math.sin(y),cp=Math.cos(p),sp=Math.sin(p),cr=Math.cos(r),sr=Math.sin(r);
 return[[cy*cr+sy*sp*sr,cp*sr,-sy*cr+cy*sp*sr],[-cy*sr+sy*sp*cr,cp*cr,sy*sr+cy*sp*cr],[sy*cp,-sp,cy*cp]];}
function apply(R,v){return[R[0][0]*v[0]+R[1][0]*v[1]+R[2][0]*v[2],R[0][1]*v[0]+R[1][1]*v[1]+R[2][1]*v[2],R[0][2]*v[0]+R[1][2]*v[1]+R[2][2]*v[2]];}
/* -- data -- */
function num(x){return typeof x==="number"&&isFinite(x)?x:0;}
function arr(x){return Array.isArray(x)?x:[];}
function undelta(a,w){a=arr(a);var out=[],f=0,v=[];for(var k=0;k<w;k++)v.push(0);
 for(var i=0;i+w<a.length;i+=w+1){f+=num(a[i]);var kf=[f];for(k=0;k<w;k++){v[k]+=num(a[i+1+k]);kf.push(v[k]);}out.push(kf);}return out;}
function sample(keys,f){if(!keys.length)return null;var lo=0,hi=keys.length-1;
 if(f<=keys[0][0])return keys[0].slice(1);if(f>=keys[hi][0])return keys[hi].slice(1);
 while(hi-lo>1){var m=(lo+hi)>>1;if(keys[m][0]<=f)lo=m;else hi=m;}
 var a=keys[lo],b=keys[hi],t=(f-a[0])/(b[0]-a[0]),o=[];for(var k=1;k<a.length;k++)o.push(a[k]+(b[k]-a[k])*t);return o;}
function inRanges(flat,f){flat=arr(flat);for(var i=0;i+1<flat.length;i+=2)if(f>=flat[i]&&f<=flat[i+1])return true;return false;}
function sevAt(flat,f){flat=arr(flat);var w=0;for(var i=0;i+2<flat.length;i+=3)if(f>=flat[i+1]&&f<=flat[i+2]&&flat[i]>w)w=flat[i];return w;}
function hex(c){return"#"+c.map(function(x){return(x<16?"0":"")+x.toString(16);}).join("");}
/* -- GL -- */
function initGL(){if(gl)return gl;try{glCanvas=document.createElement("canvas");glCanvas.width=720;glCanvas.height=420;
 var o={alpha:false,antialias:false,preserveDrawingBuffer:true};gl=glCanvas.getContext("webgl",o)||glCanvas.getContext("experimental-webgl",o);}catch(e){gl=null;}
 if(!gl)return null;
 function sh(t,s){var x=gl.createShader(t);gl.shaderSource(x,s);gl.compileShader(x);return x;}
 prog=gl.createProgram();
 gl.attachShader(prog,sh(gl.VERTEX_SHADER,"attribute vec3 p;attribute vec4 c;uniform mat4 m;varying vec4 v;void main(){v=c;gl_Position=m*vec4(p,1.0);}"));
 gl.attachShader(prog,sh(gl.FRAGMENT_SHADER,"precision mediump float;varying vec4 v;void main(){gl_FragColor=v;}"));
 gl.linkProgram(prog);if(!gl.getProgramParameter(prog,gl.LINK_STATUS)){gl=null;return null;}
 buf=gl.createBuffer();return gl;}
function draw(mode,verts,m){if(!verts.length)return;var data=new Float32Array(verts);
 gl.bindBuffer(gl.ARRAY_BUFFER,buf);gl.bufferData(gl.ARRAY_BUFFER,data,gl.STREAM_DRAW);
 var pl=gl.getAttribLocation(prog,"p"),cl=gl.getAttribLocation(prog,"c");
 gl.enableVertexAttribArray(pl);gl.enableVertexAttribArray(cl);
 gl.vertexAttribPointer(pl,3,gl.FLOAT,false,28,0);gl.vertexAttribPointer(cl,4,gl.FLOAT,false,28,12);
 gl.uniformMatrix4fv(gl.getUniformLocation(prog,"m"),false,m);gl.drawArrays(mode,0,verts.length/7);}
function vtx(out,p,c,a){out.push(p[0],p[1],p[2],c[0]/255,c[1]/255,c[2]/255,a);}
var FACES=[[0,2,6,4],[1,5,7,3],[0,4,5,1],[2,3,7,6],[0,1,3,2],[4,6,7,5]],SHADE=[.9,.9,.8,1,.95,.95];
var EDGES=[[0,1],[2,3],[4,5],[6,7],[0,2],[1,3],[4,6],[5,7],[0,4],[1,5],[2,6],[3,7]];
/* -- a scene -- */
function Scene(root,idx){var S=this;S.root=root;S.index=idx;
 var d={};try{d=JSON.parse(root.querySelector(".replay-data").textContent);}catch(e){d={};}
 S.frames=Math.max(1,num(d.frames));S.fps=num(d.fps)||60;S.fov=arr(d.fov);S.br=num(d.br)/1000;S.fr=num(d.fr)/1000;
 S.e=arr(d.e);S.vis=arr(d.vis);S.sev=arr(d.sev);S.ssev=arr(d.ssev);S.imm=arr(d.imm);S.bo=arr(d.bo);
 S.tracks=arr(d.t).map(function(t){return undelta(t,9);});S.head=undelta(d.head,6);
 S.byPath={};S.e.forEach(function(e,i){if(Array.isArray(e)&&S.byPath[e[0]]===undefined)S.byPath[e[0]]=i;});
 S.frame=0;S.mode="orbit";S.focus={};S.playing=false;
 S.canvas=root.querySelector(".replay-canvas");S.ctx=S.canvas.getContext("2d",{willReadFrequently:true});
 S.slider=root.querySelector(".replay-slider");S.label=root.querySelector(".replay-time");
 S.playBtn=root.querySelector(".replay-play");S.camBtn=root.querySelector(".replay-cam");
 /* orbit target and distance from the content at frame 0 and the head path */
 var lo=[1e9,1e9,1e9],hi=[-1e9,-1e9,-1e9];function inc(p){for(var k=0;k<3;k++){if(Math.abs(p[k])>200)return;}for(k=0;k<3;k++){lo[k]=Math.min(lo[k],p[k]);hi[k]=Math.max(hi[k],p[k]);}}
 S.tracks.forEach(function(t){if(t.length)inc([t[0][1]/1000,t[0][2]/1000,t[0][3]/1000]);});
 S.head.forEach(function(k){inc([k[1]/1000,k[2]/1000,k[3]/1000]);});
 if(lo[0]>hi[0]){lo=[-1,0,-1];hi=[1,1.6,1];}
 S.lo=lo;S.hi=hi;S.target=[(lo[0]+hi[0])/2,(lo[1]+hi[1])/2,(lo[2]+hi[2])/2];
 S.dist=Math.max(3,1.4*Math.max(hi[0]-lo[0],hi[2]-lo[2],hi[1]-lo[1])+2);S.yaw=-25*D2R;S.pitch=28*D2R;
 S.slider.addEventListener("input",function(){S.stop();S.seek(parseInt(S.slider.value,10)||0);});
 S.playBtn.addEventListener("click",function(){if(S.playing)S.stop();else S.play();});
 S.camBtn.addEventListener("click",function(){S.mode=S.mode==="orbit"?"eye":"orbit";S.camBtn.textContent=S.mode==="orbit"?"Viewer's eyes":"Orbit camera";S.render();});
 var drag=null;
 S.canvas.addEventListener("mousedown",function(ev){drag=[ev.clientX,ev.clientY];ev.preventDefault();});
 window.addEventListener("mouseup",function(){drag=null;});
 window.addEventListener("mousemove",function(ev){if(!drag||S.mode!=="orbit")return;S.yaw-=(ev.clientX-drag[0])*0.01;
  S.pitch=Math.max(-1.4,Math.min(1.5,S.pitch+(ev.clientY-drag[1])*0.01));drag=[ev.clientX,ev.clientY];S.render();});
 S.canvas.addEventListener("wheel",function(ev){if(S.mode!=="orbit")return;ev.preventDefault();S.dist=Math.max(0.5,Math.min(500,S.dist*Math.exp(ev.deltaY*0.001)));S.render();},{passive:false});
}
Scene.prototype.play=function(){var S=this;if(S.frame>=S.frames-1)S.seek(0);S.playing=true;S.playBtn.textContent="Pause";
 var start=null,from=S.frame;function step(ts){if(!S.playing)return;if(start===null)start=ts;
  var f=Math.min(S.frames-1,from+Math.floor((ts-start)/1000*S.fps));S.seek(f);if(f>=S.frames-1){S.stop();return;}window.requestAnimationFrame(step);}
 window.requestAnimationFrame(step);};
Scene.prototype.stop=function(){this.playing=false;this.playBtn.textContent="Play";};
Scene.prototype.seek=function(f){f=Math.max(0,Math.min(this.frames-1,Math.round(num(f))));this.frame=f;this.slider.value=String(f);this.render();};
Scene.prototype.headAt=function(f){var h=sample(this.head,f)||[0,1600,0,0,0,0];
 return{p:[h[0]/1000,h[1]/1000,h[2]/1000],R:rot(h[3]*T2R,h[4]*T2R,h[5]*T2R)};};
Scene.prototype.entityAt=function(i,f){var t=this.tracks[i];if(!t||!t.length)return null;var e=this.e[i];
 if(!Array.isArray(e)||e[1]==="group"||e[1]==="environment")return null;if(!inRanges(this.vis[i],f))return null;
 var s=sample(t,f);return{c:[s[0]/1000,s[1]/1000,s[2]/1000],R:rot(s[3]*T2R,s[4]*T2R,s[5]*T2R),h:[s[6]/2000,s[7]/2000,s[8]/2000],kind:e[1],sev:sevAt(this.sev[i],f)};};
Scene.prototype.matrix=function(){var asp=this.canvas.width/this.canvas.height,f=this.frame;
 if(this.mode==="eye"){var h=this.headAt(f),fw=apply(h.R,[0,0,-1]),up=apply(h.R,[0,1,0]);
  var fy=Math.min(170,Math.max(40,(num(this.fov[1])||60)*1.6))*D2R;
  return mul(persp(fy,asp,0.05,500),lookAt(h.p,[h.p[0]+fw[0],h.p[1]+fw[1],h.p[2]+fw[2]],up));}
 var t=this.target,d=this.dist,e=[t[0]+d*Math.cos(this.pitch)*Math.sin(this.yaw),t[1]+d*Math.sin(this.pitch),t[2]+d*Math.cos(this.pitch)*Math.cos(this.yaw)];
 return mul(persp(45*D2R,asp,0.05,2000),lookAt(e,t,[0,1,0]));};
Scene.prototype.render=function(){var S=this,f=S.frame;if(!initGL())return;
 gl.viewport(0,0,glCanvas.width,glCanvas.height);gl.clearColor(0.957,0.965,0.973,1);gl.clear(gl.COLOR_BUFFER_BIT|gl.DEPTH_BUFFER_BIT);
 gl.useProgram(prog);gl.enable(gl.DEPTH_TEST);gl.depthFunc(gl.LEQUAL);gl.enable(gl.BLEND);gl.blendFunc(gl.SRC_ALPHA,gl.ONE_MINUS_SRC_ALPHA);
 var m=S.matrix(),solid=[],glass=[],lines=[],fat=[];
 if(!S.kids){S.kids={};for(var j0=0;j0<S.e.length;j0++){var pa=S.e[j0][2];if(typeof pa==="number"&&pa>=0)S.kids[pa]=true;}}
 /* floor grid, 1 m */
 var g=[0.86*255,0.87*255,0.89*255],x0=Math.floor(S.lo[0])-2,x1=Math.ceil(S.hi[0])+2,z0=Math.floor(S.lo[2])-2,z1=Math.ceil(S.hi[2])+2;
 for(var x=x0;x<=x1;x++){vtx(lines,[x,0,z0],g,1);vtx(lines,[x,0,z1],g,1);}for(var z=z0;z<=z1;z++){vtx(lines,[x0,0,z],g,1);vtx(lines,[x1,0,z],g,1);}
 /* entities */
 for(var i=0;i<S.e.length;i++){var E=S.entityAt(i,f);if(!E)continue;var corners=[];
  for(var k=0;k<8;k++){var l=[(k&1?1:-1)*E.h[0],(k&2?1:-1)*E.h[1],(k&4?1:-1)*E.h[2]],w=apply(E.R,l);corners.push([E.c[0]+w[0],E.c[1]+w[1],E.c[2]+w[2]]);}
  /* a finding on a leaf is an opaque box; on a container (window, volume) tinted glass, so the
     content inside it stays visible */
  var box=E.sev&&!S.kids[i],col=E.sev?SEV[E.sev]:(BASE[E.kind]||BASE.node),target=box?solid:glass,alpha=box?1:(E.sev?0.3:(E.kind==="volume"?0.12:0.55));
  for(var q=0;q<6;q++){var F=FACES[q],s=box?1:SHADE[q],c=[col[0]*s,col[1]*s,col[2]*s];
   [0,1,2,0,2,3].forEach(function(n){vtx(target,corners[F[n]],c,alpha);});}
  var foc=!!S.focus[S.e[i][0]],ec=foc?[0,0,0]:E.sev?col:[90,98,110],dst=foc?fat:lines;
  EDGES.forEach(function(ed){vtx(dst,corners[ed[0]],ec,1);vtx(dst,corners[ed[1]],ec,1);});}
 /* boundary and fade circles on the floor */
 var bo=null;for(var b=0;b+4<S.bo.length;b+=5)if(S.bo[b]<=f)bo=S.bo[b+1]?[S.bo[b+2]/1000,S.bo[b+4]/1000]:null;
 if(bo){for(var a=0;a<96;a++){var a0=a/96*2*Math.PI,a1=(a+1)/96*2*Math.PI;
  vtx(lines,[bo[0]+S.br*Math.cos(a0),0.002,bo[1]+S.br*Math.sin(a0)],SEV[3],1);vtx(lines,[bo[0]+S.br*Math.cos(a1),0.002,bo[1]+S.br*Math.sin(a1)],SEV[3],1);
  if(a%2===0){vtx(lines,[bo[0]+S.fr*Math.cos(a0),0.002,bo[1]+S.fr*Math.sin(a0)],SEV[2],1);vtx(lines,[bo[0]+S.fr*Math.cos(a1),0.002,bo[1]+S.fr*Math.sin(a1)],SEV[2],1);}}}
 /* the viewer's path on the floor (light: all of it; dark: up to now) */
 for(var n=0;n+1<S.head.length;n++){var p0=S.head[n],p1=S.head[n+1],done=p1[0]<=f;
  vtx(lines,[p0[1]/1000,0.004,p0[3]/1000],done?[30,30,32]:[160,160,168],1);vtx(lines,[p1[1]/1000,0.004,p1[3]/1000],done?[30,30,32]:[160,160,168],1);}
 /* the head: a small box, its forward line and the comfortable field of view */
 var H=S.headAt(f),hs=sevAt(S.ssev,f),hc=hs?SEV[hs]:[30,30,32];
 if(S.mode==="orbit"){var hc8=[];for(k=0;k<8;k++){var w2=apply(H.R,[(k&1?1:-1)*0.08,(k&2?1:-1)*0.1,(k&4?1:-1)*0.1]);hc8.push([H.p[0]+w2[0],H.p[1]+w2[1],H.p[2]+w2[2]]);}
  for(q=0;q<6;q++){F=FACES[q];[0,1,2,0,2,3].forEach(function(n){vtx(solid,hc8[F[n]],hc,1);});}
  vtx(lines,H.p,[30,30,32],1);vtx(lines,[H.p[0],0,H.p[2]],[30,30,32],1);}
 var th=Math.tan((num(S.fov[0])||60)/2*D2R),tv=Math.tan((num(S.fov[1])||45)/2*D2R),L=S.mode==="eye"?1:1.5,fc=[60,60,70];
 var fr=[[-th,-tv],[th,-tv],[th,tv],[-th,tv]].map(function(u){var w3=apply(H.R,[u[0]*L,u[1]*L,-L]);return[H.p[0]+w3[0],H.p[1]+w3[1],H.p[2]+w3[2]];});
 for(k=0;k<4;k++){var A=fr[k],B=fr[(k+1)%4];for(var dsh=0;dsh<12;dsh+=2){var u0=dsh/12,u1=(dsh+1)/12;
   vtx(lines,[A[0]+(B[0]-A[0])*u0,A[1]+(B[1]-A[1])*u0,A[2]+(B[2]-A[2])*u0],fc,1);vtx(lines,[A[0]+(B[0]-A[0])*u1,A[1]+(B[1]-A[1])*u1,A[2]+(B[2]-A[2])*u1],fc,1);}
  if(S.mode==="orbit"){vtx(lines,H.p,fc,0.5);vtx(lines,A,fc,0.5);}}
 if(S.mode==="orbit"){var fwd=apply(H.R,[0,0,-0.35]);vtx(fat,H.p,[30,30,32],1);vtx(fat,[H.p[0]+fwd[0],H.p[1]+fwd[1],H.p[2]+fwd[2]],[30,30,32],1);}
 /* glass first without depth writes, then the opaque highlights over it (a finding shows through
    translucent panels, never dimmed), then lines */
 gl.depthMask(false);draw(gl.TRIANGLES,glass,m);
 gl.depthMask(true);draw(gl.TRIANGLES,solid,m);draw(gl.LINES,lines,m);draw(gl.LINES,fat,m);
 S.ctx.clearRect(0,0,S.canvas.width,S.canvas.height);S.ctx.drawImage(glCanvas,0,0);
 var imm="";for(var j=0;j<S.imm.length;j++)if(Array.isArray(S.imm[j])&&S.imm[j][0]<=f)imm=String(S.imm[j][1]);
 S.label.textContent="frame "+f+" · "+(f/S.fps).toFixed(2)+" s"+(imm?" · "+imm:"");S.last=m;};
Scene.prototype.project=function(path){var i=this.byPath[path];if(i===undefined)return null;var E=this.entityAt(i,this.frame);if(!E)return null;
 var m=this.last||this.matrix(),c=E.c,x=m[0]*c[0]+m[4]*c[1]+m[8]*c[2]+m[12],y=m[1]*c[0]+m[5]*c[1]+m[9]*c[2]+m[13],w=m[3]*c[0]+m[7]*c[1]+m[11]*c[2]+m[15];
 if(w<=0)return null;return[Math.round((x/w+1)/2*this.canvas.width),Math.round((1-y/w)/2*this.canvas.height)];};
Scene.prototype.pixel=function(x,y){try{var d=this.ctx.getImageData(x,y,1,1).data;return[d[0],d[1],d[2],d[3]];}catch(e){return null;}};
function find(i){for(var k=0;k<scenes.length;k++)if(scenes[k].index===i)return scenes[k];return null;}
window.spatialReplay={
 ready:false,
 seek:function(i,f){var S=find(i);if(S){S.stop();S.seek(f);}return!!S;},
 frame:function(i){var S=find(i);return S?S.frame:null;},
 camera:function(i,mode){var S=find(i);if(S){S.mode=mode==="eye"?"eye":"orbit";S.render();}return!!S;},
 focus:function(i,paths){var S=find(i);if(S){S.focus={};(paths||[]).forEach(function(p){S.focus[p]=true;});S.render();}return!!S;},
 project:function(i,path){var S=find(i);return S?S.project(path):null;},
 pixel:function(i,x,y){var S=find(i);return S?S.pixel(x,y):null;},
 severity:function(i,path){var S=find(i);if(!S)return null;var k=S.byPath[path];var s=k===undefined?0:sevAt(S.sev[k],S.frame);return s?hex(SEV[s]):null;}
};
function start(){if(!initGL())return;
 var roots=document.querySelectorAll(".replay[data-scene-index]");
 for(var r=0;r<roots.length;r++){try{var S=new Scene(roots[r],parseInt(roots[r].getAttribute("data-scene-index"),10));roots[r].hidden=false;scenes.push(S);S.render();}catch(e){roots[r].hidden=true;}}
 var cards=document.querySelectorAll(".vcard[data-scene-index]");
 for(var c=0;c<cards.length;c++)(function(card){card.style.cursor="pointer";card.addEventListener("click",function(ev){
  if(ev.target&&ev.target.closest&&ev.target.closest("a"))return;
  var i=parseInt(card.getAttribute("data-scene-index"),10),S=find(i);if(!S)return;
  S.focus={};(card.getAttribute("data-entities")||"").split(" ").forEach(function(p){if(p)S.focus[p]=true;});
  S.stop();S.seek(parseInt(card.getAttribute("data-frame"),10)||0);
  if(S.root.scrollIntoView)S.root.scrollIntoView({block:"nearest"});});})(cards[c]);
 window.spatialReplay.ready=true;}
if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",start);else start();
})();
"""#
