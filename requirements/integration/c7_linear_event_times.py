#!/usr/bin/python3
# Reference event times of requirement C7-LINEAR-EVENT-TIMES (c7_constrained_pendulum.yaml):
# the linear ARGESIM C7 pendulum in closed form between events, crossings by scipy brentq.
# Run: /usr/bin/python3 c7_linear_event_times.py  (Debian python3-scipy)
import numpy as np
from scipy.optimize import brentq
m,l,lp,d,g,pin=1.02,1.0,0.7,0.2,9.81,-np.pi/12
r=d/m
def sol(phi0,v0,L):
    w=np.sqrt(g/L-0.25*r*r); A=phi0; B=(v0/L+0.5*r*phi0)/w
    phi=lambda t: np.exp(-0.5*r*t)*(A*np.cos(w*t)+B*np.sin(w*t))
    v=lambda t: L*np.exp(-0.5*r*t)*((-0.5*r*A+B*w)*np.cos(w*t)+(-0.5*r*B-A*w)*np.sin(w*t))
    return phi,v,w
t=0.0; phi0=np.pi/6; v0=0.0; long=True; times=[]; tf=10.0
while True:
    L=l if long else l-lp
    phi,v,w=sol(phi0,v0,L)
    f=lambda s: phi(s)-pin
    scan=2*np.pi/w/2000; a=0.0; b=scan
    while (f(b)>0 if long else f(b)<0) and t+b<tf: a=b; b+=scan
    if (f(b)>0 if long else f(b)<0): break
    s=brentq(f,a,b,xtol=1e-15,rtol=1e-15,maxiter=200)
    t+=s
    if t>tf: break
    times.append(t); v0=v(s); phi0=pin; long=not long
print(len(times)); print(", ".join("%.12f"%x for x in times))
